import Testing
@Test func smoke2() {}
