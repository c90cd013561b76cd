/// What the six seed announcements must look like at 80 columns without styles, checked by
/// eye once and kept as golden strings.
enum SeedGoldens {
    static let welcome = #"""
        Good morning, everyone! This is the new intranet: one place for news, policies
        and the canteen menu, on your phone, your laptop and even in a terminal.

        Our IT lead, Zoë Lefèvre, puts it simply: “If it isn’t on the intranet, it
        didn’t happen.” Please bookmark the home page [1] and check it each Monday.

        What you will find here:

        • Announcements from every team, newest first
        • The on-call rota and the #help-desk channel link
        • Forms for leave, travel and equipment

        Found a bug? Write to it@brightwater.example [2] with the page address and what
        you expected to see.

        欢迎来到新的内部网，祝大家工作顺利！

        [1] https://intranet.brightwater.example/
        [2] mailto:it@brightwater.example
        """#

    static let officeMove = #"""
        The wait is over: on Monday 7 December the Lisbon team moves from Rua das Flores
        to the Harbour Building, floors 3 and 4.

        “We finally get windows that open,” says facilities manager João Gonçalves. The
        floor plan and desk map are on the maps page [1].

        Before Friday 4 December, please:

        1. Pack your desk into the labelled crates (two per person)
        2. Take plants and personal items home for the weekend
        3. Unplug your monitor but leave the dock; IT moves the docks

        Badges are re-issued on the day. If yours does not open the door, run
        badge --sync at the kiosk by reception, or ask at the front desk.

        Parking: the garage entrance is on Travessa do Cais; the old permits stay valid
        until 31 December.

        新办公室在港口大楼三楼和四楼。

        [1] https://maps.brightwater.example/harbour
        """#

    static let allHands = #"""
        Thank you to the 212 of you who joined the winter all-hands in person or online.
        For everyone else, the full recording is below.

        [Embedded: Winter all-hands 2026 — https://video.brightwater.example/embed/allhands-2026-winter]

        Highlights, with timestamps:

        • 00:04 Results of the year, by CFO Amélie Durand
        • 00:21 The StormCell 3 sensor: first field results
        • 00:38 Questions from the floor

        Amélie’s closing line got the biggest laugh: “Our forecast for next year is
        sunny, with a chance of overtime.” Slides are in the shared drive under
        /allhands/2026-winter/, and the Q&A notes are on the wiki [1].

        冬季全员大会的录像现已上线。

        [1] https://wiki.brightwater.example/allhands
        """#

    static let keyRotation = #"""
        Our yearly key rotation is due. Every engineer with access to the build farm
        must replace their SSH key before 15 December; old keys stop working that night.

        On Linux or macOS, make a new key with:

        ssh-keygen -t ed25519 -C "you@brightwater.example"

        Then upload the public half (the file ending in .pub) on the key portal [1].
        Never send the private key to anyone, including IT.

        • Use a passphrase; the agent remembers it for the day
        • One key per laptop, so a lost laptop costs one key
        • Hardware tokens are welcome: ask Søren Åberg for one

        As our security officer says: “A key that never changes is a password on a
        sticky note.”

        请在十二月十五日之前更换您的密钥。

        [1] https://keys.brightwater.example/
        """#

    static let lunarNewYear = #"""
        To welcome the Year of the Horse, the canteen serves a Lunar New Year lunch on
        Tuesday 16 February, from noon until 14:00.

        新年快乐，马年大吉！

        Chef Lucía Peña and her team prepare:

        • Dumplings, steamed and pan-fried (vegetarian options marked)
        • Longevity noodles with spring onion
        • Sweet rice balls in ginger syrup

        Lucía asks you to sign up on the canteen page [1] so nothing runs out: “I would
        rather cook too much than see a sad face.” Allergies go in the notes field of
        the form.

        Red envelopes and lanterns decorate the third floor all week; the calligraphy
        workshop on Wednesday has 20 places.

        [1] https://canteen.brightwater.example/lny
        """#

    static let parentalLeave = #"""
        From 1 January, every parent at Brightwater gets 20 weeks of paid leave, whoever
        gave birth and however the child joined the family.

        Our head of people, Chloé Nakamura-Weiß, explains the change in two minutes:

        [Embedded: Parental leave explained — https://video.brightwater.example/embed/parental-leave-2027]

        The essentials:

        • Take the weeks in up to three blocks during the child’s first two years
        • Pay stays at 100% for the whole leave
        • Request it in the HR portal under Leave › Parental

        “Nobody should have to choose between their family and their career,” Chloé
        says. The full text is on the policies page [1].

        新的育儿假政策将于一月一日生效。

        [1] https://hr.brightwater.example/policies/parental
        """#
    /// In the order of `SeedAnnouncements.all`.
    static let all = [welcome, officeMove, allHands, keyRotation, lunarNewYear, parentalLeave]
}
