import Testing
@Test func smoke() {}
