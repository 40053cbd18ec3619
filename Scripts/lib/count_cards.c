/* Counts the cards in a benchmark's output file, fast enough for the 1.1 GB book's outputs.
 *
 * usage: count_cards vcard|json FILE
 * build: cc -O2 -o count_cards Scripts/lib/count_cards.c   (Scripts/bench-suite.sh does this)
 *
 * vcard  cards at the top level: lines that are BEGIN:VCARD (any case, CRLF or LF) outside another card; a
 *        nested card (2.1 AGENT) does not count twice.
 * json   the objects and arrays inside the top-level array ([{...},{...}]: Contact JSON, preview JSON, jCard's
 *        array of ["vcard",...]); or, when the file does not start with an array, every top-level object or array
 *        (JSON lines). Strings and their escapes are skipped, so a brace inside a value does not count.
 *
 * Prints the count on stdout. Exit status: 0 done; 1 the JSON ends inside a string or a container; 2 FILE cannot
 * be read; 64 bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int
count_vcard (FILE *in, long long *count)
{
	char line[4096];
	int depth = 0;
	int line_start = 1;
	while (fgets (line, sizeof line, in) != NULL) {
		size_t length = strlen (line);
		int whole = length > 0 && line[length - 1] == '\n';
		if (line_start) {
			size_t end = length;
			while (end > 0 && (line[end - 1] == '\n' || line[end - 1] == '\r'))
				end--;
			if (end == 11 && strncasecmp (line, "BEGIN:VCARD", 11) == 0) {
				if (depth++ == 0)
					(*count)++;
			} else if (end == 9 && strncasecmp (line, "END:VCARD", 9) == 0 && depth > 0) {
				depth--;
			}
		}
		line_start = whole; /* a line longer than the buffer continues in the next fgets */
	}
	return 0;
}

static int
count_json (FILE *in, long long *count)
{
	static unsigned char buffer[1 << 16];
	int depth = 0, in_string = 0, escaped = 0, seen_first = 0, array_top = 0;
	size_t n;
	while ((n = fread (buffer, 1, sizeof buffer, in)) > 0) {
		for (size_t i = 0; i < n; i++) {
			unsigned char c = buffer[i];
			if (in_string) {
				if (escaped)
					escaped = 0;
				else if (c == '\\')
					escaped = 1;
				else if (c == '"')
					in_string = 0;
				continue;
			}
			switch (c) {
			case ' ': case '\t': case '\r': case '\n':
				break;
			case '"':
				in_string = 1;
				seen_first = 1;
				break;
			case '{': case '[':
				if (!seen_first) {
					seen_first = 1;
					array_top = c == '[';
				}
				if (depth == (array_top ? 1 : 0))
					(*count)++;
				depth++;
				break;
			case '}': case ']':
				depth--;
				break;
			default:
				seen_first = 1; /* a number, true, false, null or a comma: never a card */
				break;
			}
		}
	}
	return in_string || depth != 0;
}

int
main (int argc, char **argv)
{
	if (argc != 3 || (strcmp (argv[1], "vcard") != 0 && strcmp (argv[1], "json") != 0)) {
		fprintf (stderr, "usage: count_cards vcard|json FILE\n");
		return 64;
	}
	FILE *in = fopen (argv[2], "rb");
	if (in == NULL) {
		fprintf (stderr, "count_cards: cannot read %s: %s\n", argv[2], strerror (errno));
		return 2;
	}
	long long count = 0;
	int unfinished = strcmp (argv[1], "vcard") == 0 ? count_vcard (in, &count) : count_json (in, &count);
	int failed = ferror (in);
	fclose (in);
	if (failed) {
		fprintf (stderr, "count_cards: cannot read %s\n", argv[2]);
		return 2;
	}
	printf ("%lld\n", count);
	if (unfinished) {
		fprintf (stderr, "count_cards: %s ends inside a string or a container\n", argv[2]);
		return 1;
	}
	return 0;
}
