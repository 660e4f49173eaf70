import Testing

@testable import KaleidoscopePlayground

/// What the assembly view hides for people unless asked (SPEC §7): directives (and the
/// labels of data they held), unused labels, comments; the source lines stay with their
/// instructions.
@Suite("Assembly filters")
struct AssemblyFiltersTests {
  /// x86-64 as LLVM prints it: a constant pool, a function with a loop, comments.
  static let x86 = """
    \t.section\t.rodata.cst8,"aM",@progbits,8
    \t.p2align\t3, 0x0
    .LCPI0_0:
    \t.quad\t0x4004000000000000
    \t.text
    \t.globl\tf
    \t.type\tf,@function
    f:
    # %bb.0:
    \tmulsd\t.LCPI0_0(%rip), %xmm0          # xmm0 = mem
    .LBB0_1:
    \tjb\t.LBB0_1
    \tretq
    .Lfunc_end0:
    \t.size\tf, .Lfunc_end0-f

    """

  static let cases: [(filters: AssemblyFilters, expected: String)] = [
    (AssemblyFilters(), "f:\n\tmulsd\t.LCPI0_0(%rip), %xmm0\n.LBB0_1:\n\tjb\t.LBB0_1\n\tretq\n"),
    (
      AssemblyFilters(directives: false),
      "\t.section\t.rodata.cst8,\"aM\",@progbits,8\n\t.p2align\t3, 0x0\n.LCPI0_0:\n\t.quad\t0x4004000000000000\n"
        + "\t.text\n\t.globl\tf\n\t.type\tf,@function\nf:\n\tmulsd\t.LCPI0_0(%rip), %xmm0\n.LBB0_1:\n\tjb\t.LBB0_1\n\tretq\n"
        + ".Lfunc_end0:\n\t.size\tf, .Lfunc_end0-f\n"
    ),
    (
      AssemblyFilters(comments: false),
      "f:\n# %bb.0:\n\tmulsd\t.LCPI0_0(%rip), %xmm0          # xmm0 = mem\n.LBB0_1:\n\tjb\t.LBB0_1\n\tretq\n"
    ),
  ]

  @Test(arguments: cases.indices)
  func eachFilterHidesItsOwnLines(index: Int) {
    let (filters, expected) = Self.cases[index]
    #expect(Listing.assembly(Self.x86, filters: filters).text == expected)
  }

  /// A local label that no instruction names is hidden unless asked for.
  @Test func anUnusedLabelIsHiddenUnlessAskedFor() {
    let assembly = "f:\n.Lunused:\n\taddsd\t%xmm0, %xmm0\n\tretq\n"
    #expect(Listing.assembly(assembly).text == "f:\n\taddsd\t%xmm0, %xmm0\n\tretq\n")
    #expect(Listing.assembly(assembly, filters: AssemblyFilters(labels: false)).text == assembly)
  }

  /// A label is used when an instruction or a datum names it whole: `.LBB0_10` does not
  /// name `.LBB0_1`, and a jump table's difference names both of its labels.
  @Test func aLabelIsUsedOnlyWhenNamedWhole() {
    let assembly = "f:\n.LBB0_1:\n\tjmp\t.LBB0_10\n.LBB0_10:\n\tretq\n"
    #expect(Listing.assembly(assembly).text == "f:\n\tjmp\t.LBB0_10\n.LBB0_10:\n\tretq\n")
    let table = "f:\n\tjmpq\t*%rax\n.LBB4_7:\n\tretq\n.LJTI4_0:\n\t.long\t.LBB4_7-.LJTI4_0\n"
    #expect(Listing.assembly(table, filters: AssemblyFilters(directives: false)).text == table)
  }

  /// AArch64's comments start with `//`, and its immediates with `#`, which stay.
  @Test func anAArch64CommentGoesAndItsImmediatesStay() {
    let listing = Listing.assembly("f:\n\tfmov\td1, #2.50000000 // =0x4004000000000000\n\tret\n")
    #expect(listing.text == "f:\n\tfmov\td1, #2.50000000\n\tret\n")
  }

  @Test func sourceLinesStayWithTheirInstructions() {
    let listing = Listing.assembly("\t.p2align\t4\nf:\n\t.loc\t0 2 3\n\taddsd\t%xmm0, %xmm0\n.Ltmp9:\n\t.loc\t0 3 1\n\tretq\n")
    #expect(listing.text == "f:\n\taddsd\t%xmm0, %xmm0\n\tretq\n")
    #expect(listing.lines == [0, 2, 3])
  }
}
