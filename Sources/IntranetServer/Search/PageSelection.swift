/// The first `size` candidates of one tier of a search in rank order, chosen without sorting
/// every match: a heap whose top is the worst kept.
struct PageSelection {
    struct Candidate {
        var createdAt: Double
        var id: Int

        /// Whether it ranks before `other`: newer, then the higher id.
        func ranksBefore(_ other: Candidate) -> Bool {
            if createdAt != other.createdAt { return createdAt > other.createdAt }
            return id > other.id
        }
    }

    let size: Int
    private var heap: [Candidate] = []

    init(size: Int) {
        self.size = size
    }

    /// Keeps `candidate` if it is among the best `size` so far.
    mutating func offer(_ candidate: Candidate) {
        guard size > 0 else { return }
        if heap.count < size {
            heap.append(candidate)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[parent].ranksBefore(heap[child]) else { break }
                heap.swapAt(parent, child)
                child = parent
            }
        } else if candidate.ranksBefore(heap[0]) {
            heap[0] = candidate
            var parent = 0
            while true {
                var worst = parent
                let left = 2 * parent + 1
                if left < heap.count, heap[worst].ranksBefore(heap[left]) { worst = left }
                if left + 1 < heap.count, heap[worst].ranksBefore(heap[left + 1]) { worst = left + 1 }
                guard worst != parent else { break }
                heap.swapAt(parent, worst)
                parent = worst
            }
        }
    }

    /// The candidates kept, best first.
    func ordered() -> [Candidate] {
        heap.sorted { $0.ranksBefore($1) }
    }
}
