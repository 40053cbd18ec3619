/// Help texts: examples first, then options, then exit codes.
enum Help {
    static let version = "vcf 0.1.0\n"

    static let main = """
    vcf: convert, preview and check contact cards (vCard 2.1, 3.0, 4.0 and Contact JSON).

    Examples:
      vcf convert contacts.vcf -o contacts-3.0.vcf      any vCard to clean vCard 3.0
      vcf convert old.vcf --to vcard4                   vCard 4.0 on standard output
      vcf convert contacts.vcf --to json > cards.json   the neutral Contact JSON
      vcf convert cards.json -o cards.vcf               and back
      vcf preview card.vcf                              what a card holds, name first
      cat card.vcf | vcf preview -                      from standard input

    Commands:
      convert   read cards in any supported format and write vCard 3.0, 4.0 or JSON
      preview   show each card: name, title and company first, then the rest
      help      show help for a command (vcf help convert)

    Options:
      -h, --help     show this help
      --version      show the version

    Exit codes:
      0   success
      1   the work was done, but input cards had errors (reported on stderr)
      2   an input could not be read or an output could not be written
      64  the command line was wrong

    """

    static let convert = """
    vcf convert: read cards and write them in another format.

    Examples:
      vcf convert contacts.vcf -o clean.vcf             vCard 3.0 (the default)
      vcf convert a.vcf b.vcf --to vcard4 -o all.vcf    several inputs into one file
      vcf convert contacts.vcf --to json                Contact JSON on standard output
      vcf convert - --to json < contacts.vcf            from standard input

    Usage: vcf convert [INPUT...|-] [--to vcard3|vcard4|json] [-o OUT]

    Options:
      --to FORMAT       vcard3 (default), vcard4 or json
      --from FORMAT     vcard or json; detected from the content when omitted
      -o, --output OUT  write to OUT (replaced atomically) instead of standard output

    Problems in the input are reported on stderr as file:line:col: severity: message [code];
    every readable card is still converted.

    Exit codes: 0 success, 1 input cards had errors, 2 input/output failure, 64 usage.

    """

    static let preview = """
    vcf preview: show what each card holds, the way a receiving app shows it.

    Examples:
      vcf preview card.vcf
      vcf preview a.vcf b.json
      cat card.vcf | vcf preview -

    Usage: vcf preview [INPUT...|-]

    Exit codes: 0 success, 1 input cards had errors, 2 input/output failure, 64 usage.

    """
}
