import MeterWire
import Testing

/// The Nielsen tag layout, ID3v2 frames and DASH `emsg` boxes (Nielsen's public ID3 tag documentation).
@Suite struct ID3ParserTests {
    static let owner = "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/R8WHe7pEBeqBhu8jTeXydg==/"
        + "AAICoyitYqlxT7n6aZ0oMCGheFi4CXFp46AMUPZz1lMr_M9tr3_cjee1SHqxrOiVerMDLeyn9xzocZSKwi746Re8vNOtpNCAZjYABs_J0R25IHpvOc1HS8QHGgD5TgOJeS6gX100zdCIGeIlgZnkYj6UvVJWFNhSVhTiPE0="
        + "/00000/46016/00"

    /// The 271-byte tag: `ID3\x04\x00 \x00\x00\x02\x05PRIV\x00\x00\x01{\x00\x00` + owner + NUL + `A`.
    static func tag(_ owner: String = owner, major: UInt8 = 4) -> [UInt8] {
        let data = Array(owner.utf8) + [0, UInt8(ascii: "A")]
        func size(_ n: Int) -> [UInt8] {
            major == 4 ? [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)]
                : [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        }
        let frame = Array("PRIV".utf8) + size(data.count) + [0, 0] + data
        let body = frame.count
        let header = Array("ID3".utf8) + [major, 0, 0x20] + [UInt8(body >> 21 & 0x7F), UInt8(body >> 14 & 0x7F), UInt8(body >> 7 & 0x7F), UInt8(body & 0x7F)]
        return header + frame
    }

    @Test func theGuidesSampleTagParses() throws {
        #expect(Self.owner.count == 249)
        let tag = try NielsenID3Tag.parse(Self.owner).get()
        #expect(tag.pcCID == nil && tag.pcOffset == nil)
        #expect(tag.fdCID == "R8WHe7pEBeqBhu8jTeXydg==" && tag.fdOffset == 46016)
        #expect(tag.creditCID == tag.fdCID && tag.creditOffset == 46016)
        #expect(tag.breakout == "00")
        #expect(try NielsenID3Tag.parse(Self.owner + "\0").get() == tag)   // NUL-terminated as in the frame
    }

    @Test(arguments: [
        ("www.nielsen.com/a/b", "fields"),
        (owner.replacingOccurrences(of: "R8WHe7pEBeqBhu8jTeXydg==", with: "short"), "FD CID"),
        (owner.replacingOccurrences(of: "/46016/", with: "/4601x/"), "FD offset"),
        (String(owner.dropLast(2)) + "0", "breakout"),
        ("www.nielsen.comX/" + owner.dropFirst(16), "start with"),
        (owner + String(repeating: "A", count: 600), "bytes"),
    ])
    func damagedTagsSayWhatIsWrong(_ text: String, _ words: String) {
        guard case .failure(let error) = NielsenID3Tag.parse(text) else { Issue.record("accepted \(text)"); return }
        #expect(error.reason.contains(words), "\(error.reason)")
    }

    @Test func nielsenOwnersAreRecognisedByPrefixOnly() {
        #expect(NielsenID3Tag.isNielsen(Self.owner))
        #expect(!NielsenID3Tag.isNielsen("com.apple.streaming.transportStreamTimestamp"))
        #expect(!NielsenID3Tag.isNielsen(""))
    }

    @Test(arguments: [UInt8(3), 4])
    func theOwnerComesOutOfARawTag(_ major: UInt8) throws {
        let bytes = Self.tag(major: major)
        if major == 4 { #expect(bytes.count == 271) }
        #expect(try ID3v2.nielsenOwners(in: bytes).get() == [Self.owner])
    }

    @Test func otherFramesAndPaddingArePassedOver() throws {
        var bytes = Self.tag()
        let text = Array("TIT2".utf8) + [0, 0, 0, 3, 0, 0] + [3, 0x41, 0x42]
        bytes.insert(contentsOf: text, at: 10)
        bytes += [UInt8](repeating: 0, count: 16)
        let body = bytes.count - 10
        bytes.replaceSubrange(6..<10, with: [UInt8(body >> 21 & 0x7F), UInt8(body >> 14 & 0x7F), UInt8(body >> 7 & 0x7F), UInt8(body & 0x7F)])
        #expect(try ID3v2.privOwners(in: bytes).get() == [Self.owner])
    }

    @Test func damagedTagsFailWithoutTrapping() {
        let good = Self.tag()
        for cut in [0, 3, 9, 10, 20, 100, 270] {
            #expect((try? ID3v2.privOwners(in: Array(good.prefix(cut))).get()) == nil, "cut at \(cut)")
        }
        var huge = good
        huge[14] = 0x7F                                          // the PRIV frame's size: past the end
        #expect((try? ID3v2.privOwners(in: huge).get()) == nil)
        var v2 = good
        v2[3] = 2
        #expect((try? ID3v2.privOwners(in: v2).get()) == nil)
    }

    static func emsg(version: UInt8, scheme: String = DASHEventMessage.nielsenScheme, data: [UInt8]) -> [UInt8] {
        let strings = Array(scheme.utf8) + [0] + Array("1".utf8) + [0]
        let fields: [UInt8] = version == 0
            ? strings + [UInt8](repeating: 0, count: 16)
            : [UInt8](repeating: 0, count: 20) + strings
        let payload = [version, 0, 0, 0] + fields + data
        let size = 8 + payload.count
        return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array("emsg".utf8) + payload
    }

    @Test(arguments: [UInt8(0), 1])
    func dashEventMessagesCarryTheTag(_ version: UInt8) throws {
        let message = try DASHEventMessage.parse(Self.emsg(version: version, data: Self.tag())).get()
        #expect(message.scheme == DASHEventMessage.nielsenScheme && message.value == "1")
        #expect(try message.nielsenOwners().get() == [Self.owner])
        let other = try DASHEventMessage.parse(Self.emsg(version: version, scheme: "urn:scte:scte35:2013:bin", data: [1, 2])).get()
        #expect(try other.nielsenOwners().get().isEmpty)
    }

    @Test func damagedEventMessagesFailWithoutTrapping() {
        let good = Self.emsg(version: 1, data: Self.tag())
        for cut in [0, 8, 12, 20, 40] {
            #expect((try? DASHEventMessage.parse(Array(good.prefix(cut))).get()) == nil, "cut at \(cut)")
        }
        var noTerminator = Self.emsg(version: 0, data: [])
        noTerminator.removeLast(17)                               // the value's NUL and the fixed fields
        #expect((try? DASHEventMessage.parse(noTerminator).get()) == nil)
    }
}
