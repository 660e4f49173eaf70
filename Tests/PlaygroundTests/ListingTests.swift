import Foundation
import KaleidoscopeFrontend
import Testing

@testable import KaleidoscopePlayground

/// The server's own pieces, without a server: listings, diagnostics, ids, the rate limit and
/// the page's keyword list.
@Suite("Playground pieces")
struct ListingTests {
  @Test func irLosesItsDebugNoiseAndKeepsItsLines() {
    let ir = """
      define double @f(double %x) #0 !dbg !4 {
      entry:
          #dbg_value(double %x, !9, !DIExpression(), !10)
        %mul = fmul double %x, 2.0, !dbg !11
        ret double %mul, !dbg !12
      }

      !4 = distinct !DISubprogram(name: "f", line: 1)
      !11 = !DILocation(line: 2, column: 5, scope: !4)
      !12 = !DILocation(line: 3, column: 1, scope: !4)

      """
    let listing = Listing.ir(ir)
    #expect(
      listing.text == "define double @f(double %x) #0 {\nentry:\n  %mul = fmul double %x, 2.0\n  ret double %mul\n}\n")
    #expect(listing.lines == [0, 0, 2, 3, 0])
  }

  @Test func assemblyFollowsLocDirectivesAndDropsDebugSections() {
    let assembly =
      "\t.text\n\t.file\t\"main.ks\"\nf:\n\t.cfi_startproc\n\t.loc\t0 2 11 prologue_end\n\tvaddsd\t%xmm0, %xmm0, %xmm0\n"
      + "\t.loc\t0 3 1\n\tretq\n\t.section\t.debug_abbrev,\"\",@progbits\n\t.byte\t1\n"
    let listing = Listing.assembly(assembly, filters: AssemblyFilters(directives: false, labels: false, comments: false))
    #expect(listing.text == "\t.text\nf:\n\tvaddsd\t%xmm0, %xmm0, %xmm0\n\tretq\n")
    #expect(listing.lines == [0, 0, 2, 3])
  }

  /// Listings are split and searched by bytes: every line, empty ones too, and a match after
  /// a false start on the same first byte.
  @Test(arguments: [
    ("!dbg", "x, !!dbg !4", 4), (" !dbg ", "x  !dbg !4", 2), ("ab", "aab", 1), ("abc", "ab", nil), ("", "ab", nil),
  ])
  func findLocatesTheFirstMatch(needle: String, line: String, offset: Int?) {
    let found = Listing.find(needle, in: line[...])
    #expect(found.map { line.utf8.distance(from: line.startIndex, to: $0.lowerBound) } == offset)
    #expect(found.map { String(line[$0]) } == offset.map { _ in needle })
  }

  @Test func splitLinesKeepsEmptyLines() {
    #expect(Listing.splitLines("a\n\nb\n") == ["a", "", "b", ""])
    #expect(Listing.splitLines("") == [""])
  }

  @Test func diagnosticsAreSeparatedFromTheRestOfStandardError() {
    let stderr =
      "{\"line\":1,\"column\":2,\"endLine\":1,\"endColumn\":3,\"severity\":\"error\",\"message\":\"m\"}\n"
      + "main.ks:1:1: runtime error: stack overflow\n"
    let (diagnostics, rest) = Listing.diagnostics(in: stderr)
    #expect(diagnostics == [DiagnosticEntry(line: 1, column: 2, endLine: 1, endColumn: 3, severity: "error", message: "m")])
    #expect(rest == "main.ks:1:1: runtime error: stack overflow\n")
  }

  @Test func diagnosticJSONRoundTripsEveryCharacter() throws {
    let message = "quote \" backslash \\ tab \t newline \n bell \u{7} é"
    let line = DiagnosticJSON.quoted(message)
    #expect(try JSONDecoder().decode(String.self, from: Data(line.utf8)) == message)
  }

  @Test func snippetIDsAreWellFormedAndDistinct() {
    let ids = (0..<1000).map { _ in SnippetID.random() }
    #expect(Set(ids).count == ids.count)
    #expect(ids.allSatisfy(SnippetID.isWellFormed))
    #expect(!SnippetID.isWellFormed("../../etc/"))
    #expect(!SnippetID.isWellFormed("short"))
  }

  @Test func theRateLimitRefillsOverTime() {
    let limiter = RateLimiter(perMinute: 60)
    for _ in 0..<60 { #expect(limiter.admit("a", now: 100).allowed) }
    let refused = limiter.admit("a", now: 100)
    #expect(!refused.allowed && refused.retryAfter == 1)
    #expect(limiter.admit("b", now: 100).allowed)
    #expect(limiter.admit("a", now: 101.5).allowed)
  }

  @Test func theAdmissionQueueRefusesBeyondItsLimit() async {
    let admission = Admission(workers: 2, queueLimit: 1)
    #expect(await admission.enter("a"))
    // One client holds at most half the workers; the other half is someone else's.
    #expect(await admission.enter("b"))
    let waiting = Task { await admission.enter("c") }
    while await !admission.hasWaiting { await Task.yield() }
    #expect(await admission.enter("d") == false)
    await admission.leave("a")
    #expect(await waiting.value)
  }

  /// The page's highlighting knows exactly the compiler's keywords.
  @Test func theEditorModeHasTheCompilersKeywords() throws {
    let mode = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Sources/Tools/Serve/Page/assets/kaleidoscope-mode.js")
    let text = try String(contentsOf: mode, encoding: .utf8)
    let list = try #require(text.firstMatch(of: /var keywords = \[([^\]]*)\]/)).1
    let words = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""]) }
    #expect(Set(words) == Set(Keyword.allCases.map(\.spelling)))
  }
}
