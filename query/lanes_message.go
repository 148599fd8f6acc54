package query

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sdl-dev/sdl/lang"
)

// The error-message lane: the messages a task text quotes (an exception's
// message, a panic, a quoted string) matched against the string literals
// and comments of the code (the words column of the full-text index), and
// the exception classes it names mapped to the symbols that raise them.
// The code holds a message as a format string whose values the report
// fills in, so a message is cut into short phrases, without its quoted
// values; a symbol's score is the share of a message's phrases its
// literals hold, each phrase weighted by how few symbols hold it.
// The score is the Message feature of ranking (weightMessage).
const (
	// messagePhrase is the words of one phrase: two, since a value the
	// report filled in breaks every phrase it falls in.
	messagePhrase = 2
	// quotedWords: a quoted string of fewer words is more often a value
	// (a file name, a key) than a message.
	quotedWords = 3
	// maxMessages and maxMessagePhrases bound the queries of one slice.
	maxMessages       = 8
	maxMessagePhrases = 40
	// messagePhraseLimit bounds the symbols read per phrase; a phrase
	// held by many symbols (tests aside) is common wording ("not found")
	// more than a message, and counts 1/(1+log2(holders)).
	messagePhraseLimit = 50
	// raiseWeight is the score of a symbol that raises (constructs) an
	// exception class the text names, divided by the square root of the
	// number of such symbols; one raised in more than maxRaisers places
	// says nothing of where.
	raiseWeight = 0.5
	maxRaisers  = 30
)

var (
	// ValueError: message | raise FooError("message") | E   KeyError: 'x'
	exceptionMessage = lazyRegexp("\\b([A-Z]\\w*(?:Error|Exception|Warning|Failure|Panic|Fault))\\b(?:\\s*:[ \\t]+|\\(\\s*[\"'])([^\\n`\"]{6,300})")
	// requests.exceptions.InvalidURL: message | java.lang.IllegalStateException: message
	qualifiedException = lazyRegexp("\\b(?:[a-z_]\\w*\\.)+([A-Z]\\w+)\\s*:[ \\t]+([^\\n`\"]{6,300})")
	// Go's panic: message, Rust's panicked at 'message'
	// (not "panic" in prose: "the server will panic when...")
	panicMessage = lazyRegexp(`\b(?:panic: |panicked at ')([^\n']{6,300})`)
	// a quoted string: "..." or '...' (not an apostrophe inside a word)
	quotedString = lazyRegexp(`"([^"\n]{6,300})"|(?:^|[^\w])'([^'\n]{6,300})'(?:[^\w]|$)`)
	// commandFlag: a command-line option (--collect-only), a literal of the
	// code that declares it
	commandFlag = lazyRegexp("(?:^|[\\s`(])--([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\\b")
	// exceptionName: an exception class a text names
	exceptionName = lazyRegexp(`\b[A-Z]\w*(?:Error|Exception|Failure|Panic|Fault)\b`)
)

// exceptionSuffixes end the exception classes exceptionMessage and
// exceptionName find.
var exceptionSuffixes = []string{"Error", "Exception", "Warning", "Failure", "Panic", "Fault"}

// containsAnyOf tells whether text holds one of subs.
func containsAnyOf(text string, subs []string) bool {
	for _, s := range subs {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// errorMessages returns the messages of text worth looking up in the
// code's literals (at most maxMessages, each once) and the exception
// classes it names.
func errorMessages(text string) (msgs []string, classes []string) {
	if len(text) > maxTaskText {
		text = text[:maxTaskText]
	}
	seen := map[string]bool{}
	// a message has words apart: a quoted string without spaces is a
	// value (a path, a dotted name, a key), and one of two words more
	// often a value than a message
	add := func(m string, minWords, minChunks int) {
		m = strings.TrimSpace(m)
		if len(msgs) < maxMessages && !seen[m] && len(messageWords(m)) >= minWords && len(strings.Fields(m)) >= minChunks {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	// each pattern runs (and is compiled) only on a text that holds what
	// every match of it holds: a task without quotes, colons or exception
	// names pays for none of them
	names := containsAnyOf(text, exceptionSuffixes)
	if names {
		for _, m := range exceptionMessage().FindAllStringSubmatch(text, 2*maxMessages) {
			add(m[2], messagePhrase, 2)
		}
	}
	var qualified []string
	if strings.Contains(text, ":") {
		for _, m := range qualifiedException().FindAllStringSubmatch(text, 2*maxMessages) {
			add(m[2], messagePhrase, 2)
			qualified = append(qualified, m[1])
		}
	}
	if strings.Contains(text, "panic") {
		for _, m := range panicMessage().FindAllStringSubmatch(text, maxMessages) {
			add(m[1], messagePhrase, 2)
		}
	}
	if strings.ContainsAny(text, `"'`) {
		for _, m := range quotedString().FindAllStringSubmatch(text, 4*maxMessages) {
			add(m[1]+m[2], quotedWords, quotedWords)
		}
	}
	if strings.Contains(text, "--") {
		for _, m := range commandFlag().FindAllStringSubmatch(text, 4*maxMessages) {
			add(m[1], messagePhrase, 1)
		}
	}
	if names {
		qualified = append(qualified, exceptionName().FindAllString(text, 4*maxMessages)...)
	}
	seenClass := map[string]bool{}
	for _, c := range qualified {
		if !seenClass[c] && len(classes) < maxMessages {
			seenClass[c] = true
			classes = append(classes, c)
		}
	}
	return msgs, classes
}

// messageWords are the words of a message as the full-text index
// tokenizes it: runs of letters and digits, lower-cased.
func messageWords(m string) []string {
	return strings.FieldsFunc(strings.ToLower(m), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// quotedValue is a value quoted inside a message ('x' in "unknown region
// 'x'"), which the code fills in from a variable.
var quotedValue = lazyRegexp(`'[^']*'|"[^"]*"`)

// messagePhrases cuts a message, without its quoted values, into its
// phrases of messagePhrase words, leaving out those made of stopwords and
// numbers only.
func messagePhrases(m string) []string {
	if strings.ContainsAny(m, `"'`) {
		m = quotedValue().ReplaceAllString(m, " ")
	}
	w := messageWords(m)
	var out []string
	for i := 0; i+messagePhrase <= len(w); i++ {
		informative := false
		for _, t := range w[i : i+messagePhrase] {
			if !stopwords[t] && !isNumber(t) && len(t) > 1 {
				informative = true
			}
		}
		if informative {
			out = append(out, strings.Join(w[i:i+messagePhrase], " "))
		}
	}
	return out
}

// seedMessages runs the error-message lane over the task text.
func (b *sliceBuild) seedMessages(ctx context.Context) error {
	b.message = map[string]float64{}
	msgs, classes := errorMessages(b.req.TaskText)
	queries := 0
	for _, m := range msgs {
		phrases := messagePhrases(m)
		if len(phrases) == 0 {
			continue
		}
		held := map[string]float64{}
		for _, p := range phrases {
			if queries == maxMessagePhrases {
				break
			}
			queries++
			hits, err := b.x.ftsSearch(ctx, `{words} : "`+p+`"`, messagePhraseLimit)
			if err != nil {
				return err
			}
			// tests that quote a message are not where it is raised
			holders := 0
			for _, h := range hits {
				if !h.isTest {
					holders++
				}
			}
			w := 1 / (1 + math.Log2(float64(max(1, holders))))
			for _, h := range hits {
				held[h.id] += w
			}
		}
		for id, n := range held {
			if s := n / float64(len(phrases)); s > b.message[id] {
				b.message[id] = s
				b.because(id, fmt.Sprintf("holds the message %q", clip(m, 60)))
			}
		}
	}
	if err := b.seedRaisers(ctx, classes); err != nil {
		return err
	}
	if len(b.message) > 0 {
		b.ev.Lanes = appendOnce(b.ev.Lanes, "messages")
		for _, id := range topIDs(b.message, 8) {
			b.ev.Seeds = append(b.ev.Seeds, SeedEvidence{SymbolID: id, Source: "messages", Weight: round4(b.message[id])})
		}
	}
	return nil
}

// seedRaisers scores the symbols that construct the exception classes
// the text names (raise FooError(...), throw new FooError(...)).
func (b *sliceBuild) seedRaisers(ctx context.Context, classes []string) error {
	for _, c := range classes {
		rows, err := b.x.DB.QueryContext(ctx, `SELECT id FROM symbols WHERE to_seq IS NULL AND name = ? AND kind IN ('class', 'type') LIMIT 5`, c) // symbols_cur_name
		if err != nil {
			return fmt.Errorf("exception classes: %w", err)
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(ids) == 0 {
			continue
		}
		edges, err := b.x.edgesTouching(ctx, ids, b.minConf, b.minCall)
		if err != nil {
			return err
		}
		class := map[string]bool{}
		for _, id := range ids {
			class[id] = true
		}
		raisers := map[string]bool{}
		for _, e := range edges {
			if class[e.dst] && !class[e.src] && (e.kind == lang.RefCall || e.kind == lang.RefNew) {
				raisers[e.src] = true
			}
		}
		if len(raisers) == 0 || len(raisers) > maxRaisers {
			continue
		}
		s := raiseWeight / math.Sqrt(float64(len(raisers)))
		for id := range raisers {
			if s > b.message[id] {
				b.message[id] = s
				b.because(id, "raises "+c)
			}
		}
	}
	return nil
}

// clip shortens s to n bytes at most, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// because records why a lane found a symbol, unless a seed said so first.
func (b *sliceBuild) because(id, why string) {
	if _, ok := b.why[id]; !ok {
		b.why[id] = why
	}
}

// withLanes is prior with the finds of the stack-trace and error-message
// lanes added (the higher score of each symbol): where the graph around
// the evidence starts. The lanes' scores reach ranking as their own
// features, not through the seed feature.
func (b *sliceBuild) withLanes(prior map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(prior)+len(b.trace)+len(b.message))
	for id, s := range prior {
		out[id] = s
	}
	for _, lane := range []map[string]float64{b.trace, b.message} {
		for id, s := range lane {
			if s > out[id] {
				out[id] = s
			}
		}
	}
	return out
}
