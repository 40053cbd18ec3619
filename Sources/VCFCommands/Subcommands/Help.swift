/// Help texts: examples first, then options, then exit codes.
enum Help {
    static let version = "vcf 0.1.0\n"

    static let main = """
        vcf: convert, preview, check and merge contact cards (vCard 2.1, 3.0, 4.0, jCard, Contact JSON,
        Google, Outlook and Thunderbird CSV).

        Examples:
          vcf convert contacts.vcf -o contacts-3.0.vcf      any vCard to clean vCard 3.0
          vcf convert old.vcf --to vcard4                   vCard 4.0 on standard output
          vcf convert google.csv -o contacts.vcf            a Google Contacts, Outlook or Thunderbird CSV export
          vcf convert contacts.vcf --to json > cards.json   the neutral Contact JSON (also jcard, csv)
          vcf preview card.vcf                              what a card holds: photo, name, title first
          vcf preview contacts.vcf --format html -o cards.html   the cards as a web page
          vcf lint export.vcf                               why an import fails: errors with their lines
          vcf merge shared-card.vcf --into contacts.vcf     add a card without duplicating anyone
          vcf qr card.vcf -o card.png                       a QR code phones scan to add the card
          vcf convert card.json --photo me.jpg --max-bytes cloudkit -o me.vcf
                                                            embed a photo so the card fits 1 MB

        Commands:
        \(Commands.list)

        Options:
          -h, --help     show this help
          --version      show the version

        Exit codes:
          0   success
          1   the work was done, but input cards had errors (reported on stderr), or lint found errors
          2   an input could not be read or an output could not be written
          64  the command line was wrong

        Diagnostics go to stderr as file:line:col: severity: message; data goes to stdout or -o FILE.
        A file is replaced atomically under a lock, keeping its owner and mode (a read-only one only with
        --force); -, /dev/stdout and /dev/fd/N write to that descriptor. A closed pipe (vcf ... | head) ends
        quietly; any other write error is exit 2. Docs/Reliability.md states every guarantee.

        """

    static let convert = """
        vcf convert: read cards and write them in another format.

        Examples:
          vcf convert contacts.vcf -o clean.vcf             vCard 3.0 (the default)
          vcf convert a.vcf b.vcf --to vcard4 -o all.vcf    several inputs into one file
          vcf convert contacts.vcf --to json                Contact JSON on standard output
          vcf convert - --to json < contacts.vcf            from standard input
          vcf convert google.csv outlook.csv -o all.vcf     Google Contacts and Outlook CSV exports
          vcf convert contacts.vcf --to csv -o google.csv   for Google Contacts import
          vcf convert card.vcf --to jcard                   jCard (RFC 7095)
          vcf convert card.json --photo me.jpg --max-bytes cloudkit -o me.vcf
          vcf convert book.vcf --max-bytes icloud -o fits.vcf   recompress photos already in the cards
          vcf convert book.vcf --split cards/               one file per card, named after the card
          vcf convert export.vcf --ensure-uid --to-vdir ~/.contacts/friends/
                                                            a vdir (khard, vdirsyncer): one UID.vcf per card
          vcf convert export.vcf --ensure-uid -o https://dav.example.com/addressbooks/ann/contacts/
                                                            upload to a CardDAV address book
          vcf convert https://dav.example.com/addressbooks/ann/contacts/ -o backup.vcf
          vcf convert ~/.contacts/friends/ -o friends.vcf   an INPUT folder is read as its .vcf files

        Usage: vcf convert [INPUT...|-] [--to vcard3|vcard4|jcard|json|csv] [-o OUT | --split DIR] [--photo IMAGE]
                           [--max-bytes N|PRESET] [--max-edge PX] [--charset NAME] [--ensure-uid]
                           [--to-vdir DIR] [--user NAME] [--force]

        An INPUT is a file, - (standard input), a vdir folder (its .vcf files in name order) or the https://
        URL of a CardDAV address book (every card in it).

        Options:
          --to FORMAT       vcard3 (default), vcard4, jcard (RFC 7095), json (Contact JSON) or csv (the
                            Google Contacts layout; a field starting with = + - @ gets a leading ' so
                            spreadsheets do not run it, and vcf strips it again on import)
          --from FORMAT     vcard, jcard, json or csv (Google Contacts, Outlook or Thunderbird export);
                            detected from the content when omitted
          --charset NAME    the charset of vCard text that is not UTF-8 and declares none (Windows-1251,
                            KOI8-R, Shift_JIS...); without it each card's is decided from the CHARSETs the
                            card and file declare and from its letters, with a warning naming the choice
          -o, --output OUT  write to OUT (replaced atomically, keeping its owner and mode) instead of standard
                            output; OUT is left as it was when an input cannot be read. An https:// URL of a
                            CardDAV address book uploads each card as its own resource, named from its UID,
                            never over a card there (a card whose UID is there already is left alone)
          --force           replace OUT even when it is read-only
          --ensure-uid      give each card without a UID one made from its content (the UID lint --fix makes),
                            so converting the same export again gives the same UIDs
          --to-vdir DIR     write each card to its own file UID.vcf in DIR (created if missing), never over a
                            file there; cards need a UID (--ensure-uid)
          --user NAME       the CardDAV user; the password is asked for on the terminal. Without it,
                            VCF_CARDDAV_USER and VCF_CARDDAV_PASSWORD, else ~/.netrc. Plain http:// only to
                            this machine (localhost)
          --split DIR       write each card to its own file in DIR, named after the card; a name already
                            taken gets a number (Ann Lee-2.vcf), so no file in DIR is replaced
          --photo IMAGE     embed IMAGE (JPEG or PNG) as the card's photo, as baseline JPEG (one card only)
          --max-bytes N     each written card, photo included, is at most N bytes; or a preset:
                              cloudkit   1,000,000-byte record
                              icloud     256,000-byte card, photo at most 224,000 bytes
                              exchange   photo at most 48,000 bytes of base64
                              nextcloud  5,242,880-byte card
                              baikal     1,000,000-byte card
                            A card that cannot fit even with the smallest photo is reported and not written.
          --max-edge PX     longest photo edge in pixels (default 1024); photos are never enlarged

        Problems in the input are reported on stderr as file:line:col: severity: message [code];
        every readable card is still converted.

        One line per card on stderr says what was done to its photo, for example
          photo 4032x3024 -> 1024x768 q86 4:4:4, 182,311 bytes; record 249,870 of 256,000 bytes

        Exit codes: 0 success, 1 input cards had errors or a card could not fit, 2 input/output failure, 64 usage.

        """

    static let merge = """
        vcf merge: add cards to an existing contacts file without duplicates and without losing data.

        Examples:
          vcf merge shared-card.vcf --into contacts.vcf            add or merge one card
          vcf merge google.vcf outlook.vcf --into contacts.vcf --backup
          vcf merge export.vcf --into contacts.vcf -n --explain    show the plan and why, change nothing
          vcf merge export.vcf --into contacts.vcf --json > report.json
          vcf merge export.vcf --into contacts.vcf --review     decide the possible duplicates one by one
          printf 'm\\nk\\n' | vcf merge export.vcf --into contacts.vcf --review   answers from a script
          vcf merge shared-card.vcf --into ~/.contacts/friends/   a vdir: only changed files are written
          vcf merge export.vcf --into https://dav.example.com/addressbooks/ann/contacts/ --user ann

        Usage: vcf merge INCOMING... --into CONTACTS.vcf|DIR/|URL [-n] [--json] [--explain] [--backup] [--force]
                         [--review] [--accept FILE] [--prefer newer|existing|incoming] [--country-code N]
                         [--charset NAME] [--user NAME]

        INCOMING is vCard, jCard, Contact JSON or a Google, Outlook or Thunderbird CSV export (- for standard
        input), a vdir folder or a CardDAV address book URL; an incoming file with no cards is an error, and
        nothing is changed.

        A card is the same person as an existing one when they share the UID; or share an email or a personal
        phone (mobile, home, untyped) that no other card has, and their names do not conflict; or have the
        identical full name and organisation and nothing conflicting (birthday, other addresses at one domain).
        Weaker evidence (a work number, a family address, the same name alone) is reported as a possible
        duplicate and the card is added, not merged. Jr./Sr., different middle initials or middle names
        (Jean-Pierre and Jean-Paul), or birthdays keep people apart.
        Merging unions phones, emails, addresses, URLs, IM, categories and X- properties (equal values once,
        types combined); single values (FN, N, ORG, TITLE, ROLE, BDAY, PHOTO) follow --prefer (default: the
        card with the newer REV, else the incoming one), except that a value saying less of the same thing
        (parts, accents or the year left out) never replaces one; a value not taken is reported; notes are
        joined.
        CONTACTS.vcf is rewritten through a temporary file and a rename, under a lock so merges take turns;
        if another program changes it meanwhile, the merge is done again on the new content. Its owner and
        mode are kept; cards that did not change keep their bytes. A missing CONTACTS.vcf is created. An
        added card without a UID gets one made from its content.
        A vdir (an existing folder, or a path ending in /) gets new cards as new files named from their UID,
        and only the files of merged cards are rewritten, each atomically; a CardDAV address book (an https://
        URL) gets PUT If-None-Match: * for a new card and If-Match: ETAG for a merged one. A card changed
        meanwhile (by khard, by a phone) is read again and merged again, never overwritten; a card the server
        refuses is reported with its reason and the others still go through. --review, --accept and --backup
        work on a contacts file only.

          --into FILE          the contacts file, vdir folder or CardDAV address book URL to update
          -n, --dry-run        print the plan, change nothing
          --explain            print why each card matched (or did not)
          --json               the full report on standard output
          --backup             keep the previous file as FILE.bak (FILE.bak.2, .3... when that is taken:
                               an earlier backup is never replaced)
          --force              update FILE even when it is read-only
          --review             show each possible duplicate, strongest first, beside the card it resembles,
                               and ask: m merge, k keep apart (remembered in CONTACTS.vcf.decisions), s skip,
                               q quit (answers so far kept); one key on a terminal, one answer a line otherwise
          --accept FILE        merge the pairs listed in FILE (a --json report's possibleDuplicates, edited,
                               or lines of two UIDs and an optional keep-apart)
          --prefer WHICH       newer (default), existing or incoming
          --country-code N     read national numbers as +N (default: the file's most common code)
          --charset NAME       the charset of incoming text that is not UTF-8 and declares none (as vcf
                               convert)
          --user NAME          the CardDAV user (password asked on the terminal; else VCF_CARDDAV_USER and
                               VCF_CARDDAV_PASSWORD, else ~/.netrc)

        Exit codes: 0 success, 1 some incoming cards were unreadable and skipped (the rest merged), or a
        vdir or server card could not be read, written or merged again, 2 the contacts file has errors or a
        file or server could not be read or written (nothing changed; but the report comes after the file, so
        when standard output cannot take it, the file was updated, as the line before the error says), 64 usage.

        """

    static let dedupe = """
        vcf dedupe: merge the cards of one file that are the same person.

        Examples:
          vcf dedupe contacts.vcf -n --explain      what would merge, and why
          vcf dedupe contacts.vcf --backup          merge in place, keep contacts.vcf.bak
          vcf dedupe contacts.vcf -o clean.vcf      write the result elsewhere
          vcf dedupe contacts.vcf --review          decide the possible duplicates one by one
          vcf dedupe ~/.contacts/friends/           a vdir, in place (or a CardDAV URL)

        Usage: vcf dedupe CONTACTS.vcf|DIR|URL|- [-n] [--json] [--explain] [--backup] [--force] [-o OUT] [--review]
                          [--accept FILE] [--prefer newer|existing|incoming] [--country-code N] [--user NAME]

        The same rule as vcf merge, within one file: cards it is sure of merge into the first card of their
        group; possible duplicates are listed, strongest first, and left alone (--review and --accept as for
        vcf merge). The file is updated in place as vcf merge updates it (--backup keeps FILE.bak, or
        FILE.bak.2...; --force for a read-only file); dedupe - reads standard input and writes standard output.
        In a vdir or address book, the file or card merged away is removed only after the card it went into
        is written.

        Exit codes: 0 success, 2 the file has errors or cannot be read or written, 64 usage.

        """

    static let photo = """
        vcf photo: contact photos on their own.

        Examples:
          vcf photo fit IMG_0042.jpg --max-bytes 224000 -o me.jpg
          vcf photo fit avatar.png --max-bytes exchange --max-edge 512 -o avatar.jpg
          vcf photo extract contacts.vcf -o photos/

        Usage: vcf photo fit IMAGE --max-bytes N|PRESET [--max-edge PX] -o OUT.jpg [--force]
               vcf photo extract [INPUT...|-] -o DIR [--charset NAME]

        fit      recompress IMAGE (JPEG or PNG) as a baseline JPEG of at most N bytes, the best quality that
                 fits: turned upright, metadata (EXIF, GPS position) removed, longest edge at most PX (default
                 1024), never enlarged. An image that already fits and is clean is kept byte for byte. A preset
                 (cloudkit, icloud, exchange, nextcloud, baikal) bounds the image by its photo or record limit.
        extract  write every embedded photo to DIR, one file per card, named after the card; a name already
                 taken gets a number, so no file in DIR is replaced.

        Exit codes: 0 success, 1 the image cannot fit or input cards had errors, 2 unreadable image or
        input/output failure, 64 usage.

        """

    static let preview = """
        vcf preview: show what each card holds, the way a receiving app shows it.

        Examples:
          vcf preview card.vcf                          photo, name, title and company, then the rest
          vcf preview a.vcf b.json                      several inputs, one after another
          cat card.vcf | vcf preview -                  from standard input
          vcf preview card.vcf --format json            the card as Contact JSON, photo summarised
          vcf preview contacts.vcf --format html -o contacts.html
                                                        one self-contained page, photos included

        Usage: vcf preview [INPUT...|-] [--format text|json|html] [-o OUT] [--photo|--no-photo] [--include-photo]
                           [--charset NAME]

        Options:
          -f, --format F    text (default), json or html
          -o, --output OUT  write to OUT (replaced atomically, keeping its owner and mode) instead of standard
                            output; OUT is left as it was when an input cannot be read
          --force           replace OUT even when it is read-only
          --photo           draw the photo as a small thumbnail in the text, even into a pipe
          --no-photo        never draw the thumbnail
          --include-photo   json: keep the photo's base64 instead of its summary (type, pixel size, bytes)
          --charset NAME    the charset of vCard text that is not UTF-8 and declares none (as vcf convert)

        Text is coloured, with a thumbnail of the photo, only on a terminal with true colour
        (COLORTERM=truecolor); NO_COLOR and TERM=dumb turn colour off. Control characters, escape sequences
        and bidi overrides in a card are shown as visible escapes (\\u{1B}), never sent to the terminal. HTML
        escapes every value, allows no scripts, and links only well-formed phone numbers, email and web
        addresses.

        Exit codes: 0 success, 1 input cards had errors, 2 input/output failure, 64 usage.

        """
}
