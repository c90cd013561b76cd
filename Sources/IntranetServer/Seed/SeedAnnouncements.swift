/// The six announcements a fresh database starts with, in the order they get ids 1–6.
///
/// They describe Brightwater Instruments, a fictional maker of weather sensors, and exercise
/// what clients must render: paragraphs, links, emphasis, code, lists, embedded video and
/// non-ASCII text.
enum SeedAnnouncements {
    struct Entry: Sendable {
        let title: String
        let body: String
    }

    static let all: [Entry] = [welcome, officeMove, allHands, keyRotation, lunarNewYear, parentalLeave]

    static let welcome = Entry(
        title: "Welcome to the new Brightwater intranet",
        body: """
            <p>Good morning, everyone! This is the <strong>new intranet</strong>: one place for news, \
            policies and the canteen menu, on your phone, your laptop and even in a terminal.</p>
            <p>Our IT lead, <em>Zoë Lefèvre</em>, puts it simply: “If it isn’t on the intranet, it \
            didn’t happen.” Please bookmark <a href="https://intranet.brightwater.example/">the home \
            page</a> and check it each Monday.</p>
            <p>What you will find here:</p>
            <ul>
            <li>Announcements from every team, newest first</li>
            <li>The on-call rota and the <code>#help-desk</code> channel link</li>
            <li>Forms for leave, travel and equipment</li>
            </ul>
            <p>Found a bug? Write to <a href="mailto:it@brightwater.example">it@brightwater.example</a> \
            with the page address and what you expected to see.</p>
            <p lang="zh">欢迎来到新的内部网，祝大家工作顺利！</p>
            """
    )

    static let officeMove = Entry(
        title: "Office move: Harbour Building, floors 3 and 4",
        body: """
            <p>The wait is over: on <strong>Monday 7 December</strong> the Lisbon team moves from \
            Rua das Flores to the <em>Harbour Building</em>, floors 3 and 4.</p>
            <p>“We finally get windows that open,” says facilities manager <em>João Gonçalves</em>. \
            The floor plan and desk map are on <a href="https://maps.brightwater.example/harbour">the \
            maps page</a>.</p>
            <p>Before Friday 4 December, please:</p>
            <ol>
            <li>Pack your desk into the labelled crates (two per person)</li>
            <li>Take plants and personal items home for the weekend</li>
            <li>Unplug your monitor but leave the dock; IT moves the docks</li>
            </ol>
            <p>Badges are re-issued on the day. If yours does not open the door, run \
            <code>badge --sync</code> at the kiosk by reception, or ask at the front desk.</p>
            <p>Parking: the garage entrance is on Travessa do Cais; the old permits stay valid \
            until 31 December.</p>
            <p lang="zh">新办公室在港口大楼三楼和四楼。</p>
            """
    )

    static let allHands = Entry(
        title: "Winter all-hands: the recording is online",
        body: """
            <p>Thank you to the 212 of you who joined the winter all-hands in person or online. \
            For everyone else, the full recording is below.</p>
            <iframe width="560" height="315" src="https://video.brightwater.example/embed/allhands-2026-winter" \
            title="Winter all-hands 2026" allowfullscreen></iframe>
            <p>Highlights, with timestamps:</p>
            <ul>
            <li><strong>00:04</strong> Results of the year, by CFO <em>Amélie Durand</em></li>
            <li><strong>00:21</strong> The StormCell 3 sensor: first field results</li>
            <li><strong>00:38</strong> Questions from the floor</li>
            </ul>
            <p>Amélie’s closing line got the biggest laugh: “Our forecast for next year is \
            <em>sunny, with a chance of overtime</em>.” Slides are in the shared drive under \
            <code>/allhands/2026-winter/</code>, and the Q&amp;A notes are on \
            <a href="https://wiki.brightwater.example/allhands">the wiki</a>.</p>
            <p lang="zh">冬季全员大会的录像现已上线。</p>
            """
    )

    static let keyRotation = Entry(
        title: "Security: rotate your SSH keys by 15 December",
        body: """
            <p>Our yearly key rotation is due. Every engineer with access to the build farm must \
            replace their SSH key <strong>before 15 December</strong>; old keys stop working that \
            night.</p>
            <p>On Linux or macOS, make a new key with:</p>
            <p><code>ssh-keygen -t ed25519 -C "you@brightwater.example"</code></p>
            <p>Then upload the <em>public</em> half (the file ending in <code>.pub</code>) on \
            <a href="https://keys.brightwater.example/">the key portal</a>. Never send the private \
            key to anyone, including IT.</p>
            <ul>
            <li>Use a passphrase; the agent remembers it for the day</li>
            <li>One key per laptop, so a lost laptop costs one key</li>
            <li>Hardware tokens are welcome: ask <em>Søren Åberg</em> for one</li>
            </ul>
            <p>As our security officer says: “A key that never changes is a password on a \
            sticky note.”</p>
            <p lang="zh">请在十二月十五日之前更换您的密钥。</p>
            """
    )

    static let lunarNewYear = Entry(
        title: "Lunar New Year lunch in the canteen",
        body: """
            <p>To welcome the Year of the Horse, the canteen serves a <strong>Lunar New Year \
            lunch</strong> on Tuesday 16 February, from noon until 14:00.</p>
            <p lang="zh">新年快乐，马年大吉！</p>
            <p>Chef <em>Lucía Peña</em> and her team prepare:</p>
            <ul>
            <li>Dumplings, steamed and pan-fried (vegetarian options marked)</li>
            <li>Longevity noodles with spring onion</li>
            <li>Sweet rice balls in ginger syrup</li>
            </ul>
            <p>Lucía asks you to sign up on <a href="https://canteen.brightwater.example/lny">the \
            canteen page</a> so nothing runs out: “I would rather cook too much than see a sad \
            face.” Allergies go in the <code>notes</code> field of the form.</p>
            <p>Red envelopes and lanterns decorate the third floor all week; the calligraphy \
            workshop on Wednesday has 20 places.</p>
            """
    )

    static let parentalLeave = Entry(
        title: "New parental leave policy from 1 January",
        body: """
            <p>From <strong>1 January</strong>, every parent at Brightwater gets <strong>20 weeks \
            of paid leave</strong>, whoever gave birth and however the child joined the family.</p>
            <p>Our head of people, <em>Chloé Nakamura-Weiß</em>, explains the change in two minutes:</p>
            <iframe width="560" height="315" src="https://video.brightwater.example/embed/parental-leave-2027" \
            title="Parental leave explained" allowfullscreen></iframe>
            <p>The essentials:</p>
            <ul>
            <li>Take the weeks in up to three blocks during the child’s first two years</li>
            <li>Pay stays at 100% for the whole leave</li>
            <li>Request it in the HR portal under <code>Leave › Parental</code></li>
            </ul>
            <p>“Nobody should have to choose between their family and their career,” Chloé says. \
            The full text is on <a href="https://hr.brightwater.example/policies/parental">the \
            policies page</a>.</p>
            <p lang="zh">新的育儿假政策将于一月一日生效。</p>
            """
    )
}
