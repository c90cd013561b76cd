import Testing
@testable import IntranetServer

@Suite("Bounded cache (S3-FIFO)")
struct BoundedCacheTests {
    @Test("never above its limits in entries or bytes, whatever is stored")
    func staysWithinLimits() {
        var cache = BoundedCache<Int, Int>(limits: CacheLimits(entries: 50, bytes: 5_000))
        var generator = SystemRandomNumberGenerator()
        for index in 0..<20_000 {
            let key = Int.random(in: 0..<500, using: &generator)
            if index.isMultiple(of: 3) { _ = cache.value(for: key) }
            cache.set(index, for: key, size: Int.random(in: 1...400, using: &generator))
            #expect(cache.count <= 50)
            #expect(cache.bytes <= 5_000)
        }
    }

    @Test("a burst of keys used once does not evict what is used again")
    func scanResistant() {
        var cache = BoundedCache<String, Int>(limits: CacheLimits(entries: 100, bytes: 1 << 20))
        for hot in 0..<20 {
            cache.set(hot, for: "hot\(hot)", size: 10)
            _ = cache.value(for: "hot\(hot)")
        }
        for index in 0..<100_000 {
            cache.set(index, for: "once\(index)", size: 10)
            if index.isMultiple(of: 1_000) {
                for hot in 0..<20 { _ = cache.value(for: "hot\(hot)") }
            }
        }
        let kept = (0..<20).filter { cache.peek("hot\($0)") != nil }
        #expect(kept.count == 20)
        #expect(cache.evictions >= 100_000 - 100)
    }

    @Test("while full, a key is admitted on its second sighting (or as a ghost), so keys used once cost no entry")
    func admission() {
        var cache = BoundedCache<String, Int>(limits: CacheLimits(entries: 10, bytes: 1 << 20))
        var answers: [Bool] = []
        for index in 0..<10 {
            answers.append(cache.admits("k\(index)"))
            cache.set(index, for: "k\(index)", size: 10)
        }
        #expect(answers.allSatisfy { $0 }, "room left: everything is admitted")
        // Full: a key kept is admitted; a key never seen is refused once, admitted when it
        // comes back, and each admission takes its sighting.
        answers = ["k3", "new", "new", "new"].map { cache.admits($0) }
        #expect(answers == [true, false, true, false])
        // Keys let go from probation are ghosts: they come back in at once.
        for index in 10..<30 { cache.set(index, for: "k\(index)", size: 10) }
        #expect(cache.peek("k15") == nil)
        let ghostAdmitted = cache.admits("k15")
        #expect(ghostAdmitted)
        // Sightings are bounded as the entries are: the oldest are forgotten.
        for index in 0..<25 { _ = cache.admits("once\(index)") }
        answers = ["once0", "once24"].map { cache.admits($0) }
        #expect(answers == [false, true])
    }

    @Test("an entry over the byte limit is not kept, and replaces nothing but its own key")
    func oversized() {
        var cache = BoundedCache<String, Int>(limits: CacheLimits(entries: 10, bytes: 100))
        cache.set(1, for: "a", size: 60)
        cache.set(2, for: "b", size: 101)
        #expect(cache.peek("b") == nil)
        #expect(cache.peek("a") == 1)
        cache.set(3, for: "a", size: 101)
        #expect(cache.peek("a") == nil)
        #expect(cache.bytes == 0)
    }

    @Test("removing by value drops those entries and their bytes; a hot one comes back to the main queue")
    func removal() {
        var cache = BoundedCache<String, Int>(limits: CacheLimits(entries: 10, bytes: 1_000))
        for index in 0..<10 { cache.set(index, for: "k\(index)", size: 10) }
        _ = cache.value(for: "k0")
        cache.removeAll { $0.isMultiple(of: 2) }
        #expect(cache.count == 5)
        #expect(cache.bytes == 50)
        // k0 was hot: stored again, it survives a burst of new keys.
        cache.set(0, for: "k0", size: 10)
        for index in 100..<200 { cache.set(index, for: "n\(index)", size: 10) }
        #expect(cache.peek("k0") == 0)
        #expect(cache.count <= 10)
    }

    @Test("the queues stay bounded however often entries are removed and stored again")
    func queuesCompact() {
        var cache = BoundedCache<Int, Int>(limits: CacheLimits(entries: 1_000, bytes: 1 << 20))
        for round in 0..<1_000 {
            for key in 0..<10 { cache.set(round, for: key, size: 1) }
            cache.removeAll { _ in true }
        }
        #expect(cache.count == 0)
        #expect(cache.bytes == 0)
        #expect(cache.queuedPlaces <= 64 + 10)
    }
}
