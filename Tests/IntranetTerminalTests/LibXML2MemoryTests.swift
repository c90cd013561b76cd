@testable import IntranetHTML
import CLibXML2
import Testing
@testable import IntranetServer
@testable import IntranetTerminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts libxml2's allocations per thread: libxml2 allocates only through the functions
/// given to `xmlMemSetup`, so a parse that frees everything leaves its thread's count as it
/// found it. Per thread, so tests parsing in parallel do not disturb each other.
enum LibXML2AllocationCounter {
    nonisolated(unsafe) private static var key = pthread_key_t()
    private static let installed: Bool = {
        pthread_key_create(&key, nil)
        let result = xmlMemSetup(
            { pointer in
                if pointer != nil { LibXML2AllocationCounter.adjust(-1) }
                free(pointer)
            },
            { size in
                LibXML2AllocationCounter.adjust(1)
                return malloc(size)
            },
            { pointer, size in
                if pointer == nil { LibXML2AllocationCounter.adjust(1) }
                return realloc(pointer, size)
            },
            { text in
                guard let text else { return nil }
                LibXML2AllocationCounter.adjust(1)
                return strdup(text)
            })
        return result == 0
    }()

    static func adjust(_ delta: Int) {
        let current = Int(bitPattern: pthread_getspecific(key))
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: current + delta))
    }

    /// libxml2 blocks allocated and not freed by `body` on this thread.
    static func outstanding(during body: () -> Void) -> Int? {
        guard installed else { return nil }
        let before = Int(bitPattern: pthread_getspecific(key))
        body()
        return Int(bitPattern: pthread_getspecific(key)) - before
    }
}

@Suite("libxml2 memory")
struct LibXML2MemoryTests {
    @Test("parsing frees every block libxml2 allocated, for well-formed, malformed and attribute-heavy HTML")
    func everyAllocationFreed() throws {
        let inputs = SeedAnnouncements.all.map(\.body) + [
            "<p>One<p>Two <strong>bold <em>both", "<script>x()</script><ul><li>a<ul><li>b",
            #"<a href="https://a.example" title="t" data-x='1'>A</a><iframe src="https://e.example"></iframe>"#,
        ]
        _ = HTMLParser.parseBody("<p>warm up</p>")  // libxml2's one-time global set-up

        for html in inputs {
            var nodes: [HTMLNode] = []
            let outstanding = try #require(LibXML2AllocationCounter.outstanding { nodes = HTMLParser.parseBody(html) })

            #expect(outstanding == 0, "libxml2 blocks left after parsing: \(html.prefix(40))")
            #expect(!nodes.isEmpty)
        }
    }

    @Test("the counter sees a document that is not freed, so the check above can fail")
    func counterDetectsLeak() throws {
        _ = HTMLParser.parseBody("<p>warm up</p>")
        var leaked: htmlDocPtr?

        let outstanding = try #require(LibXML2AllocationCounter.outstanding {
            leaked = htmlReadMemory("<p>x</p>", 8, nil, "UTF-8", HTMLParser.options)
        })
        xmlFreeDoc(leaked)

        #expect(outstanding > 0)
    }
}
