#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The value of a number token, correctly rounded as `strtod` rounds it.
enum NumberLiteral {
  /// `digits[.digits]` with at most 15 significant digits is computed exactly: the digits as
  /// an integer (exact below 2^53) divided by a power of ten (exact up to 10^22), one
  /// correctly rounded operation, which is what `strtod` returns. Everything else (exponents,
  /// longer numbers) goes to `strtod`.
  static func value(of digits: Slice<UnsafeBufferPointer<UInt8>>) -> Double {
    var mantissa = 0
    var significant = 0
    var fractionDigits = 0
    var seenDot = false
    for byte in digits {
      if byte == UInt8(ascii: "."), !seenDot {
        seenDot = true
        continue
      }
      guard Lexer.isDigit(byte), significant < 15 else { return valueByStrtod(digits) }
      mantissa = mantissa * 10 + Int(byte &- UInt8(ascii: "0"))
      if mantissa > 0 { significant += 1 }
      if seenDot { fractionDigits += 1 }
    }
    guard fractionDigits <= 22 else { return valueByStrtod(digits) }
    return fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / powersOfTen[fractionDigits]
  }

  /// 10^0 ... 10^22, every one exactly representable as a `Double`.
  private static let powersOfTen: [Double] = (0...22).map { exponent in
    (0..<exponent).reduce(1.0) { value, _ in value * 10 }
  }

  private static func valueByStrtod(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Double {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: digits.count + 1) { buffer in
      for (offset, byte) in digits.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
      buffer[digits.count] = 0
      return strtod(buffer.baseAddress!, nil)
    }
  }
}
