import Foundation
import PasskeyStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes a written file, and a rename in its directory, reach the disk.
enum FileDurability {
    static func sync(_ path: String) throws(StoreError) {
        try sync(path, flags: O_RDWR, what: "the file")
    }

    static func sync(directoryOf path: String) throws(StoreError) {
        try sync(URL(fileURLWithPath: path).deletingLastPathComponent().path, flags: O_RDONLY, what: "the folder of")
    }

    private static func sync(_ path: String, flags: Int32, what: String) throws(StoreError) {
        let descriptor = open(path, flags)
        guard descriptor >= 0, fsync(descriptor) == 0 || errno == EINVAL else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw StoreError(.unavailable, "Could not write \(what) \(path) to the disk: \(reason).")
        }
        close(descriptor)
    }
}
