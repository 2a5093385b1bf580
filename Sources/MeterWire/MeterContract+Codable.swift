// The contract's vocabulary is Foundation-free (MeterContract builds as Embedded Swift, where
// Codable does not exist); the JSON formats here need it as Codable.
extension CreditKind: Codable {}
extension WireProduct: Codable {}
extension MediaType: Codable {}
extension AssetClass: Codable {}
extension PingKind: Codable {}
