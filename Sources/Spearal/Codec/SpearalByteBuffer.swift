import Foundation

/// The growable output of a ``SpearalWriter``, in `malloc`ed memory that ``takeData()`` hands
/// over to `Data` without copying.
///
/// A message can weigh a megabyte: building it in a `[UInt8]` and then calling `Data(bytes)`
/// would allocate, fault in and copy that megabyte a second time. The buffer is noncopyable so
/// that exactly one owner frees the memory (in `deinit`, unless `takeData()` gave it away).
struct SpearalByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>?
    private(set) var count = 0
    private var capacity: Int

    /// Creates an empty buffer with room for `capacity` bytes.
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 64)
        base = Self.allocate(nil, byteCount: self.capacity)
    }

    deinit {
        free(base)
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        base.unsafelyUnwrapped[count] = byte
        count += 1
    }

    /// Appends raw bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if capacity - count < bytes.count { grow(toHold: bytes.count) }
        (base.unsafelyUnwrapped + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    /// Appends the bytes of an array.
    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends the UTF-8 bytes of `string`, straight from its storage when it is native.
    mutating func appendUTF8(of string: String) {
        let copied: Void? = string.utf8.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        guard copied == nil else { return }
        // Bridged strings have no contiguous UTF-8 storage: copy them byte by byte.
        for byte in string.utf8 { append(byte) }
    }

    /// Appends `value` unsigned and big-endian in `length0 + 1` bytes (length0 0...7).
    mutating func appendUnsigned(_ value: UInt64, length0: Int) {
        let length = length0 + 1
        if capacity - count < length { grow(toHold: length) }
        let target = base.unsafelyUnwrapped + count
        var shift = UInt64(length0 * 8)
        for offset in 0..<length {
            target[offset] = UInt8(truncatingIfNeeded: value >> shift)
            shift &-= 8
        }
        count += length
    }

    /// Gives the bytes to a `Data`, which frees them; the buffer is empty afterwards.
    mutating func takeData() -> Data {
        guard let taken = base, count > 0 else { return Data() }
        base = nil
        let length = count
        count = 0
        capacity = 0
        return Data(bytesNoCopy: taken, count: length, deallocator: .free)
    }

    /// Makes room for `extra` more bytes, at least doubling the capacity so appends stay amortized O(1).
    private mutating func grow(toHold extra: Int) {
        let needed = count + extra
        var newCapacity = Swift.max(capacity * 2, 64)
        while newCapacity < needed { newCapacity *= 2 }
        base = Self.allocate(base, byteCount: newCapacity)
        capacity = newCapacity
    }

    /// `realloc`, which may extend the block in place instead of copying it; traps when memory
    /// is exhausted, as Swift's own allocations do.
    private static func allocate(_ old: UnsafeMutablePointer<UInt8>?, byteCount: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = realloc(old, byteCount) else {
            fatalError("Spearal: cannot allocate \(byteCount) bytes")
        }
        return memory.assumingMemoryBound(to: UInt8.self)
    }
}
