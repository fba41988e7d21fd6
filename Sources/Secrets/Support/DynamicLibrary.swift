import Foundation

/// A C library opened at run time with `dlopen`, so that building Coffer needs no `-dev` package: the Secret
/// Service's libsecret, OpenSSL's libcrypto.
///
/// A library is never closed once its functions are in use: their addresses stay valid for the life of the process.
package struct DynamicLibrary: @unchecked Sendable {
    // Safety: `handle` is only passed to `dlsym` and `dlclose`, which are thread-safe.
    private let handle: UnsafeMutableRawPointer
    /// The name it was opened by.
    package let name: String

    private init(handle: UnsafeMutableRawPointer, name: String) {
        self.handle = handle
        self.name = name
    }

    /// Opens the first of `candidates` (paths, or file names the dynamic loader looks up) that loads and that
    /// `accept` takes; `accept` throws a description of why it refused one. Returns every reason when none did.
    package static func open<Library>(
        firstOf candidates: [String], _ accept: (DynamicLibrary) throws -> Library
    ) -> Result<Library, DynamicLibraryError> {
        var reasons: [String] = []
        for name in candidates {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): not found")
                continue
            }
            let library = DynamicLibrary(handle: handle, name: name)
            do {
                return .success(try accept(library))
            } catch {
                dlclose(handle)
                reasons.append("\(error)")
            }
        }
        return .failure(DynamicLibraryError(reasons: reasons))
    }

    /// The address of `symbol`.
    ///
    /// - Throws: ``DynamicLibraryError`` naming the symbol when the library has none by that name.
    package func address(of symbol: String) throws(DynamicLibraryError) -> UnsafeMutableRawPointer {
        guard let address = dlsym(handle, symbol) else {
            throw DynamicLibraryError(reasons: ["\(name) has no \(symbol)"])
        }
        return address
    }

    /// The C function `symbol`, as `type` (a `@convention(c)` function type matching its declaration).
    package func function<Function>(_ symbol: String, as type: Function.Type) throws(DynamicLibraryError) -> Function {
        unsafeBitCast(try address(of: symbol), to: type)
    }
}

/// Why a ``DynamicLibrary`` could not be used: for each library tried, what `dlopen` or the check of its symbols said.
package struct DynamicLibraryError: Error, CustomStringConvertible {
    /// One reason per library tried, or the missing symbol.
    package let reasons: [String]

    /// Records `reasons`.
    package init(reasons: [String]) {
        self.reasons = reasons
    }

    /// The reasons, separated by semicolons.
    package var description: String { reasons.joined(separator: "; ") }
}
