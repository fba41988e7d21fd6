import Foundation
import WalletDocuments

extension PassChecks {
    /// The images a pass may hold, by file name stem.
    enum ImageRole: String, CaseIterable {
        case icon, logo, strip, thumbnail, background, footer, artwork, primaryLogo, secondaryLogo
    }

    /// An image's size in points at 1x: `maximum` ones may be smaller, others are scaled and cropped to fill it.
    struct ImageSlot {
        let width: Double
        let height: Double
        let isMaximum: Bool
    }

    /// The slot of `role` on a pass of `style` (Apple's Human Interface Guidelines for Wallet).
    static func slot(_ role: ImageRole, style: Pass.Style) -> ImageSlot {
        switch role {
        case .icon: ImageSlot(width: 38, height: 38, isMaximum: false)
        case .logo: ImageSlot(width: 160, height: 50, isMaximum: true)
        case .primaryLogo: ImageSlot(width: 126, height: 30, isMaximum: true)
        case .secondaryLogo: ImageSlot(width: 135, height: 12, isMaximum: true)
        case .thumbnail: ImageSlot(width: 90, height: 90, isMaximum: true)
        case .strip:
            switch style {
            case .eventTicket: ImageSlot(width: 375, height: 98, isMaximum: false)
            case .coupon, .storeCard: ImageSlot(width: 375, height: 144, isMaximum: false)
            case .boardingPass, .generic: ImageSlot(width: 375, height: 123, isMaximum: false)
            }
        case .background: ImageSlot(width: 180, height: 220, isMaximum: false)
        case .artwork: ImageSlot(width: 358, height: 448, isMaximum: false)
        case .footer: ImageSlot(width: 286, height: 15, isMaximum: true)
        }
    }

    /// The images the layouts of `pass` draw; the others are ignored.
    static func usedImages(_ pass: Pass, files: [String: Data]) -> Set<ImageRole> {
        var used: Set<ImageRole> = [.icon, .logo]
        switch pass.style {
        case .boardingPass: used.insert(.footer)
        case .coupon, .storeCard: used.insert(.strip)
        case .eventTicket:
            used.formUnion(hasImage("strip", in: files) ? [.strip] : [.background, .thumbnail])
        case .generic: used.insert(.thumbnail)
        }
        if isPosterEventTicket(pass) { used.formUnion([.artwork, .background, .primaryLogo, .secondaryLogo]) }
        if isSemanticBoardingPass(pass) { used.insert(.primaryLogo) }
        if pass.json["posterGeneric"] != nil { used.formUnion([.artwork, .background, .primaryLogo]) }
        return used
    }

    /// Whether `files` hold the image `stem` at some scale, at the top or in a localization.
    static func hasImage(_ stem: String, in files: [String: Data]) -> Bool {
        files.keys.contains { imageName($0)?.stem == stem }
    }

    /// The stem and scale of an image path (`fr.lproj/logo@2x.png` is `logo`, 2); `nil` for other files.
    static func imageName(_ path: String) -> (stem: String, scale: Int)? {
        guard path.hasSuffix(".png") else { return nil }
        var name = String(path.split(separator: "/").last!.dropLast(4))
        var scale = 1
        for candidate in [2, 3] where name.hasSuffix("@\(candidate)x") {
            name.removeLast(3)
            scale = candidate
        }
        return (name, scale)
    }

    /// The width and height of a PNG image, from its header; `nil` when the data is not a PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            bytes[12...15].elementsEqual("IHDR".utf8)
        else { return nil }
        func number(_ start: Int) -> Int { bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// The checks of the images: the icon, images the layout ignores, sizes and scales.
    static func checkImages(_ pass: Pass, files: [String: Data], in context: inout LintContext) {
        // Apple's reference names icon.png; Pass Designer asks for the 2x and 3x images besides.
        if files["icon.png"] == nil {
            context.error(
                "image.icon", "icon.png", "is required (Wallet shows it in notifications and on the lock screen)")
        }
        for scale in [2, 3] where files["icon.png"] != nil && files["icon@\(scale)x.png"] == nil {
            context.warning("image.icon", "icon@\(scale)x.png", "is missing: screens of \(scale)x show a blurred icon")
        }
        let used = usedImages(pass, files: files)
        var scales: [String: [(scale: Int, width: Int, height: Int)]] = [:]
        for path in files.keys.sorted() {
            guard let (stem, scale) = imageName(path) else { continue }
            guard let role = ImageRole(rawValue: stem) else {
                context.note("image.unknown", path, "is not an image Wallet reads; it only makes the pass larger")
                continue
            }
            if !used.contains(role) {
                context.warning(
                    "image.unused", path,
                    "is not drawn on this pass's layouts (\(pass.style.rawValue)); Wallet ignores it")
            }
            guard let size = pngSize(files[path]!) else { continue }
            let folder = path.contains("/") ? String(path.split(separator: "/")[0]) + "/" : ""
            scales[folder + stem, default: []].append((scale, size.width, size.height))
            checkSize(role, style: pass.style, path: path, scale: scale, size: size, in: &context)
        }
        for (image, variants) in scales.sorted(by: { $0.key < $1.key }) {
            guard let base = variants.min(by: { $0.scale < $1.scale }) else { continue }
            for variant in variants where variant.scale != base.scale {
                let expectedWidth = base.width * variant.scale / base.scale
                let expectedHeight = base.height * variant.scale / base.scale
                if abs(variant.width - expectedWidth) > 1 || abs(variant.height - expectedHeight) > 1 {
                    context.warning(
                        "image.scale", "\(image)@\(variant.scale)x.png",
                        "is \(variant.width)×\(variant.height) pixels; at \(variant.scale)x of the "
                            + "\(base.width)×\(base.height) @\(base.scale)x image it should be "
                            + "\(expectedWidth)×\(expectedHeight)")
                }
            }
        }
    }

    /// Warns about an image whose size does not fit its slot.
    static func checkSize(
        _ role: ImageRole, style: Pass.Style, path: String, scale: Int, size: (width: Int, height: Int),
        in context: inout LintContext
    ) {
        let slot = slot(role, style: style)
        let width = Double(size.width) / Double(scale)
        let height = Double(size.height) / Double(scale)
        let expected = "\(Int(slot.width * Double(scale)))×\(Int(slot.height * Double(scale))) pixels at \(scale)x"
        if slot.isMaximum {
            if width > slot.width + 0.5 || height > slot.height + 0.5 {
                context.warning(
                    "image.size", path,
                    "is \(size.width)×\(size.height) pixels; Wallet scales it down to fit at most \(expected)")
            }
        } else if abs(width / height - slot.width / slot.height) > 0.05 * slot.width / slot.height {
            context.warning(
                "image.size", path,
                "is \(size.width)×\(size.height) pixels, another shape than the \(expected) Wallet fills: it is "
                    + "cropped")
        }
    }
}
