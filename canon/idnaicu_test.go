package canon_test

import (
	"bufio"
	"cmp"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/canon"
)

// TestIDNAAgainstICU compares step 4's IDNA with an independent
// implementation of UTS #46 of the same Unicode version: ICU 72 (Unicode
// 15.0), through PyICU (Debian bookworm: apt-get install -y python3-icu). The
// oracle is testdata/idna/icu_uts46.py, run once for the whole test; it
// gives ICU's nameToASCII result and error bits for every input.
//
// The inputs are the host of http://<host>/ in the pdf and pdf2 profiles:
//
//   - every code point from U+0080 to U+10FFFF that is not a surrogate, twice:
//     between two letters ("a<cp>b": mapping, validity, CheckJoiners and
//     CheckBidi in a left-to-right label) and alone ("<cp>": a leading
//     combining mark, and the mapping of right-to-left characters, which fail
//     CheckBidi between two Latin letters). One code point a host, so that a
//     disagreement names its code point; ICU and canon both take about a
//     microsecond a host, so there is no need to batch them.
//   - icuSamples: hosts as they are met, and the cases the options decide.
//
// ASCII is not swept: step 4 runs IDNA only on a host with non-ASCII
// characters, and an ASCII character in a host is the URL parser's (the
// delimiters : / ? # [ ] @ end or split the authority before step 4, and
// '%' starts an escape) or the reg-name check's; UTS #46 with
// UseSTD3ASCIIRules off only lower-cases it. The samples hold ASCII next to
// non-ASCII characters.
//
// canon must give ICU's ASCII host when ICU reports none of the errors that
// apply to canon's options (icuIgnoredBits), and a bad host (ErrBadHost)
// otherwise. ICU's result then goes through what step 4 does after IDNA
// (regName): with UseSTD3ASCIIRules off, IDNA maps characters to ASCII that
// no host may hold (U+FF0F FULLWIDTH SOLIDUS to '/', U+00A0 NO-BREAK SPACE to
// ' '), and canon rejects them after IDNA.
func TestIDNAAgainstICU(t *testing.T) {
	start := time.Now()
	last := rune(0x10FFFF)
	if testing.Short() {
		last = 0xFFFF
	}
	inputs := icuInputs(last)
	icu := startICU(t)

	// Feed the oracle while its answers are read.
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(icu.stdin, 1<<16)
		var buf []byte
		for _, in := range inputs {
			buf = hex.AppendEncode(buf[:0], []byte(in.host()))
			buf = append(buf, '\n')
			if _, err := w.Write(buf); err != nil {
				werr <- err
				return
			}
		}
		err := w.Flush()
		if cerr := icu.stdin.Close(); err == nil {
			err = cerr
		}
		werr <- err
	}()

	var (
		bad                      []icuMismatch
		badCodePoints            = map[rune]bool{}
		badHosts                 = map[int]bool{}
		icuOK, icuErr, icuIgnore int
		afterIDNA                int // ICU accepts, the reg-name check rejects
		allowed                  = map[string]bool{}
	)
	for i, in := range inputs {
		line, err := icu.stdout.ReadString('\n')
		if err != nil {
			t.Fatalf("reading ICU's answer %d of %d (%s): %v; stderr: %s", i+1, len(inputs), in, err, icu.stderr.String())
		}
		bitsHex, resHex, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		bits, err1 := strconv.ParseUint(bitsHex, 16, 32)
		res, err2 := hex.DecodeString(resHex)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("ICU's answer %d (%s) is %q, want \"<hex bits> <hex result>\"", i+1, in, line)
		}
		host := in.host()
		relevant := uint32(bits) &^ icuIgnoredBits
		want, wantErr := "http://"+string(res)+"/", relevant != 0
		switch {
		case wantErr:
			icuErr++
		case !regName(string(res)):
			wantErr = true
			afterIDNA++
		default:
			icuOK++
			if bits != 0 {
				icuIgnore++
			}
		}
		if host == "FAẞ.de" && (bits != 0 || string(res) != "fass.de") {
			// Unicode 15.1 maps U+1E9E to ß: xn--fa-hia.de.
			t.Fatalf("ICU %s gives %+q, %s for %+q; UTS #46 of Unicode 15.0.0 gives \"fass.de\": the oracle is not of Unicode 15.0",
				icu.version, res, icuBitsString(uint32(bits)), host)
		}
		for _, p := range []*canon.Profile{canon.PDF, canon.PDF2} {
			got, err := p.Canonical("http://" + host + "/")
			agree := got == want && err == nil
			if wantErr {
				agree = errors.Is(err, canon.ErrBadHost)
			}
			if !agree {
				if a, ok := icuAllowed[host]; ok && in.sample >= 0 && a.canon == got && err == nil && a.icuBits == uint32(bits) {
					allowed[host] = true
					continue
				}
				bad = append(bad, icuMismatch{in: in, profile: p.String(), icuBits: uint32(bits), icuResult: string(res),
					regNameBad: relevant == 0 && wantErr, got: got, err: err})
				badHosts[i] = true
				if in.sample < 0 {
					badCodePoints[in.cp] = true
				}
			}
		}
	}
	if extra, _ := icu.stdout.ReadString('\n'); extra != "" {
		t.Fatalf("ICU answered more than %d inputs: %q", len(inputs), extra)
	}
	if err := <-werr; err != nil {
		t.Fatalf("writing to ICU: %v; stderr: %s", err, icu.stderr.String())
	}
	if err := icu.cmd.Wait(); err != nil {
		t.Fatalf("%s: %v; stderr: %s", icu.cmd, err, icu.stderr.String())
	}

	t.Logf("ICU %s (Unicode %s, PyICU %s, %s): %d hosts (%d code points, each in two hosts; %d samples) "+
		"in the pdf and pdf2 profiles, %.1fs: ICU accepts %d (%d with only errors canon's options ignore), "+
		"rejects %d; the reg-name check rejects %d that ICU accepts",
		icu.version, icu.unicode, icu.pyicu, icu.cmd.Path, len(inputs), (len(inputs)-len(icuSamples))/2, len(icuSamples),
		time.Since(start).Seconds(), icuOK, icuIgnore, icuErr, afterIDNA)
	for host, a := range icuAllowed {
		if allowed[host] {
			t.Logf("known difference, %+q: canon gives %s, ICU reports %s: %s", host, a.canon, icuBitsString(a.icuBits), a.why)
		} else {
			t.Errorf("icuAllowed lists %+q, which does not disagree as it says (canon %s, ICU %s): remove it", host, a.canon, icuBitsString(a.icuBits))
		}
	}
	if min(icuOK, icuErr) < len(inputs)/100 || afterIDNA == 0 {
		t.Fatalf("ICU accepts %d hosts and rejects %d, and the reg-name check %d: the harness is not comparing what it should", icuOK, icuErr, afterIDNA)
	}
	if len(bad) == 0 {
		return
	}
	// The samples first: they are the hosts a reader knows.
	rank := func(m icuMismatch) uint32 { return uint32(m.in.sample) } // the sweep's -1 last
	slices.SortStableFunc(bad, func(a, b icuMismatch) int { return cmp.Compare(rank(a), rank(b)) })
	const show = 40
	for i, m := range bad {
		if i == show {
			t.Errorf("… and %d more", len(bad)-show)
			break
		}
		t.Error(m)
	}
	t.Errorf("canon and ICU %s (Unicode %s) disagree on %d of %d hosts, %d code points of the sweep %s: "+
		"canon's IDNA is not UTS #46 of Unicode 15.0.0 with the profiles' options (internal/idna15, canon/host.go); "+
		"if the tables or the algorithm changed, that changes keys (see the package documentation)",
		icu.version, icu.unicode, len(badHosts), len(inputs), len(badCodePoints), cpRanges(badCodePoints, 30))
}

// ICU error bits (uidna.h UIDNA_ERROR_*, as PyICU's IDNAInfo.ERROR_* has
// them in PyICU 2.10.2).
const (
	icuEmptyLabel          = 0x1
	icuLabelTooLong        = 0x2
	icuDomainNameTooLong   = 0x4
	icuLeadingHyphen       = 0x8
	icuTrailingHyphen      = 0x10
	icuHyphen34            = 0x20
	icuLeadingCombining    = 0x40
	icuDisallowed          = 0x80
	icuPunycode            = 0x100
	icuLabelHasDot         = 0x200
	icuInvalidACELabel     = 0x400
	icuBidi                = 0x800
	icuContextJ            = 0x1000
	icuContextOPunctuation = 0x2000
	icuContextODigits      = 0x4000
)

var icuBitNames = []string{"EMPTY_LABEL", "LABEL_TOO_LONG", "DOMAIN_NAME_TOO_LONG", "LEADING_HYPHEN",
	"TRAILING_HYPHEN", "HYPHEN_3_4", "LEADING_COMBINING_MARK", "DISALLOWED", "PUNYCODE", "LABEL_HAS_DOT",
	"INVALID_ACE_LABEL", "BIDI", "CONTEXTJ", "CONTEXTO_PUNCTUATION", "CONTEXTO_DIGITS"}

// icuIgnoredBits are the errors that ICU reports whatever its options and
// that canon's options turn off; every other bit means a bad host.
//
//   - LEADING_HYPHEN, TRAILING_HYPHEN, HYPHEN_3_4: CheckHyphens is off (UTS #46
//     15.0 §4.1 criteria 2 and 3; ICU has no option for it). ICU still gives
//     the converted name: "-ü-.de" is "xn-----xka.de" with these bits.
//   - EMPTY_LABEL, LABEL_TOO_LONG, DOMAIN_NAME_TOO_LONG: VerifyDnsLength is off
//     (§4.2 ToASCII step 4, which also holds the empty-label check; ICU does
//     not report the empty root label of "ü.de."). So "ü..de" is
//     http://xn--tda..de/ and a host that IDNA empties (U+00AD SOFT HYPHEN
//     alone) is http:///, as canon gives them.
//
// Kept: DISALLOWED (criterion 6; with UseSTD3ASCIIRules off, as the oracle
// runs ICU without UIDNA_USE_STD3_RULES, the 307 non-ASCII
// disallowed_STD3_valid and disallowed_STD3_mapped code points of 15.0 are
// valid and mapped, for ICU as for canon; what they map to is then the
// reg-name check's), LEADING_COMBINING_MARK (criterion 5), PUNYCODE and
// INVALID_ACE_LABEL (§4 step 4: an xn-- label that is not Punycode, or whose
// decoding is not a valid label), BIDI (criterion 8, CheckBidi), CONTEXTJ
// (criterion 7, CheckJoiners). LABEL_HAS_DOT is labelToASCII's, never
// nameToASCII's. CONTEXTO_* need UIDNA_CHECK_CONTEXTO, which is off (UTS #46
// has no CONTEXTO rule); were ICU to report them, they would count as errors
// and show as disagreements.
const icuIgnoredBits = icuLeadingHyphen | icuTrailingHyphen | icuHyphen34 |
	icuEmptyLabel | icuLabelTooLong | icuDomainNameTooLong

func icuBitsString(b uint32) string {
	if b == 0 {
		return "no errors"
	}
	var names []string
	for i, n := range icuBitNames {
		if b&(1<<i) != 0 {
			if 1<<i&icuIgnoredBits != 0 {
				n += " (ignored)"
			}
			names = append(names, n)
		}
	}
	return strings.Join(names, "|")
}

// regName reports whether step 4 keeps host after IDNA: RFC 3986 reg-name,
// unreserved and sub-delims characters and well-formed escapes (which the pdf
// and pdf2 profiles keep as written). ICU's result is lower-case already.
func regName(host string) bool {
	for i := 0; i < len(host); i++ {
		c := host[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', strings.IndexByte("-._~!$&'()*+,;=", c) >= 0:
		case c == '%' && i+2 < len(host) && isHexICU(host[i+1]) && isHexICU(host[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

func isHexICU(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// An icuInput is a host: a code point between two letters, a code point
// alone, or icuSamples[sample].
type icuInput struct {
	cp     rune
	alone  bool
	sample int32 // -1 for the sweep
}

func (in icuInput) host() string {
	switch {
	case in.sample >= 0:
		return icuSamples[in.sample]
	case in.alone:
		return string(in.cp)
	}
	return "a" + string(in.cp) + "b"
}

func (in icuInput) String() string {
	switch {
	case in.sample >= 0:
		return fmt.Sprintf("sample %+q", icuSamples[in.sample])
	case in.alone:
		return fmt.Sprintf("U+%04X alone", in.cp)
	}
	return fmt.Sprintf("U+%04X in \"a\\U%08Xb\"", in.cp, in.cp)
}

// icuInputs are the hosts compared: every code point from U+0080 up to
// last, and the samples. (go test -short, CI's race step, sweeps the Basic
// Multilingual Plane alone: the whole sweep takes half a minute under
// -race, and the full test run has it.)
func icuInputs(last rune) []icuInput {
	in := make([]icuInput, 0, 2*(int(last)+1-0x80-0x800)+len(icuSamples))
	for cp := rune(0x80); cp <= last; cp++ {
		if 0xD800 <= cp && cp <= 0xDFFF {
			continue // surrogates: not characters, and not valid UTF-8
		}
		in = append(in, icuInput{cp: cp, sample: -1}, icuInput{cp: cp, alone: true, sample: -1})
	}
	for i := range icuSamples {
		in = append(in, icuInput{sample: int32(i)})
	}
	return in
}

// icuSamples are hosts as they are met, and the cases that the options
// decide. Each has a non-ASCII character: step 4 does not run IDNA on an
// ASCII host.
var icuSamples = []string{
	// German: nontransitional keeps ß; Unicode 15.0 maps ẞ (U+1E9E) to "ss"
	// (15.1 maps it to ß).
	"Faß.de", "FASS.de.ß", "FAẞ.de", "straße.example", "Straße.Example.COM", "ẞ.de",
	"München.de", "MÜNCHEN.DE", "ＭÜＮＣＨＥＮ.de", "bücher.example", "BÜCHER.EXAMPLE",
	// Greek: final sigma is kept, capital sigma maps to σ.
	"βόλος.com", "ΒΌΛΟΣ.com", "σίσυφος.gr", "ΣΊΣΥΦΟΣ.gr", "ς.gr", "Σ.gr", "ευρω.eu", "ΕΥΡΩ.ΕΥ",
	// Other scripts.
	"日本語.jp", "日本語。ＪＰ", "例え.テスト", "中国.公司", "中國.公司", "한국.kr", "ไทย.th",
	"россия.рф", "РОССИЯ.РФ", "пример.испытание", "उदाहरण.परीक्षा", "இந்தியா.in", "ελ.gr",
	"İstanbul.tr", "ǅemal.ba", "ǆ.hr", "ﬁ.example", "㎏.jp", "①.com", "☕.example", "♥.example", "💩.la",
	"xn--ls8h.la.💩", "≠.com", "a≮b.com", "≯.com",
	// Label separators: U+3002, U+FF0E, U+FF61, and what they do at the ends.
	"example。com", "example．com", "example｡com", "ü。", "。ü", "ü。。de", "ü..de", "ü.de.", ".ü.de",
	// Right to left (CheckBidi): Arabic and Hebrew labels, with European (EN)
	// and Arabic-Indic (AN) digits, next to left-to-right labels.
	"مثال.إختبار", "مثال.com", "موقع.وزارة-الاتصالات.مصر", "مثال123.com", "مثال١٢٣.com", "123مثال.com",
	"١٢٣مثال.com", "مثال١23.com", "مثال1٢3.com", "1a.مثال", "a1.مثال", "مثال.1", "مثال.1a", "مثال.a1",
	"דוגמה.טעסט", "עברית.co.il", "עברית1.com", "1עברית.com", "עב1רית.com", "עב-רית.com", "-עברית.com",
	"עברית٣.com", "a.עברית", "aעברית.com", "עבריתa.com", "ابجد\u064b.com", "\u064bابجد.com",
	"ביתא\u05b0.com", "ABC.\u05d0\u05d1", "ab.\u05d0\u0661",
	// U+2135 ALEF SYMBOL (bidi class L) maps to U+05D0 HEBREW LETTER ALEF (R):
	// alone it is a right-to-left label, and it makes the name a Bidi
	// domain name, in which "1" breaks the Bidi rule. UTS #46 checks the
	// Bidi rule on the mapped labels (§4.1 criterion 8), and ICU rejects
	// "1.ℵ" as it rejects "1.א"; idna15, like golang.org/x/net/idna, takes
	// the bidi class of U+2135 before mapping, finds no Bidi domain name and
	// accepts it (golang/go#81525, "x/net/idna: Bidi rule evaluated before
	// UTS 46 mapping", open). The sweep's "a\u2135b" .. "a\u2138b" are the
	// same bug.
	"\u2135.com", "1.\u2135", "\u2135.1", "\u05d0.1",
	// Joiners (CheckJoiners): ZWJ after a virama, ZWNJ between joining
	// letters, and both where no rule allows them.
	"a\u200db.com", "a\u200cb.com", "\u200d.com", "\u200c.com", "क्\u200dष.com", "क्\u200cष.com",
	"क\u200dष.com", "ന്\u200dറ.in", "نامه\u200cای.ir", "من\u200cو.ir", "\u200cنامه.ir", "نامه\u200c.ir",
	"ا\u200cب.ir", "ب\u200cا.ir", "ب\u064b\u200c\u064bا.ir", "ශ්\u200dර.lk",
	// Leading combining marks.
	"\u0301a.com", "a.\u0301a.com", "a\u0301.com", "\u093fक.com", "\u200dक.com",
	// Hyphens (CheckHyphens off) and lengths (VerifyDnsLength off).
	"-ü-.de", "ü--x.de", "üx--x.de", "ab--ü.de", "-.ü", "ü.-", "ü-.de",
	"ü" + strings.Repeat("a", 70) + ".de", strings.Repeat("ü.", 130) + "de", strings.Repeat("üb", 40),
	// xn-- labels next to a non-ASCII label.
	"ü.xn--mnchen-3ya.de", "ü.XN--MNCHEN-3YA.de", "ü.xn--zca.de", "ü.xn--tda", "ü.xn--.de", "ü.xn--a.de",
	"ü.xn--a-.de", "ü.xn--abc-.de", "ü.xn--ü.de", "ü.xn--55qx5d.cn", "ü.xn--0.de", "ü.xn--mnchen-3ya-.de",
	"ü.xn--ss-.de", "ü.xn--1ch.com", "ü.xn--4db.com", "ü.xn--ls8h.la", "ü.xn--zz.de", "ü.xn--9a.de",
	"xn--ü.de", "ü.xn--mnchen.de", "xn--.ü",
	// Characters that map to ASCII no host may hold, or to escapes.
	"a＠b.com", "a／b.com", "a：b.com", "a？b.com", "a＃b.com", "a［b］.com", "ü\u00a0.de", "ü％41.de",
	"ü％zz.de", "ü％４１.de", "ü＿x.de", "ü！x.de", "ü＋x.de", "ü～x.de", "a\u2488b.com", "ü\u00ad.de",
	"\u00ad", "a\ufe00b.com", "ü\U000E0100.de",
}

// icuAllowed are the known differences between ICU and UTS #46 of Unicode
// 15.0.0 with canon's options, by sample host: what canon gives (in both
// profiles), ICU's error bits, and why canon's answer is the one Unicode 15.0
// gives. An entry that stops disagreeing in just this way fails the test.
var icuAllowed = map[string]struct {
	canon   string
	icuBits uint32
	why     string
}{
	// UTS #46 15.0 §4 step 4 decodes "xn--" to the empty label, which no
	// validity criterion of 15.0 rejects (and VerifyDnsLength, which would,
	// is off), so ToASCII gives "xn--tda..de". ICU has always rejected an
	// xn-- label that decodes to nothing (UIDNA_ERROR_INVALID_ACE_LABEL);
	// UTS #46 made that an error in revision 33, Unicode 16.0 ("the label is
	// empty, or contains only ASCII code points"). canon's idna15 takes the
	// ASCII half of that rule from golang.org/x/net/idna, which applies it
	// whatever the version, but not the empty half.
	"ü.xn--.de": {"http://xn--tda..de/", icuInvalidACELabel,
		"an xn-- label that decodes to the empty string: no error in UTS #46 15.0, one from 16.0 on and in ICU"},
	"xn--.ü": {"http://.xn--tda/", icuInvalidACELabel,
		"as ü.xn--.de"},
}

type icuMismatch struct {
	in         icuInput
	profile    string
	icuBits    uint32
	icuResult  string
	regNameBad bool
	got        string
	err        error
}

func (m icuMismatch) String() string {
	icu := fmt.Sprintf("%+q with %s", m.icuResult, icuBitsString(m.icuBits))
	if m.regNameBad {
		icu += ", which the reg-name check rejects"
	}
	return fmt.Sprintf("%s, %s: canon gives %q, %v; ICU %s", m.in, m.profile, m.got, m.err, icu)
}

// cpRanges writes the code points of set as ranges, at most n of them.
func cpRanges(set map[rune]bool, n int) string {
	var b strings.Builder
	ranges := 0
	for cp := rune(0); cp <= 0x10FFFF; cp++ {
		if !set[cp] {
			continue
		}
		last := cp
		for set[last+1] {
			last++
		}
		if ranges == n {
			b.WriteString(" …")
			break
		}
		if ranges > 0 {
			b.WriteByte(' ')
		}
		ranges++
		fmt.Fprintf(&b, "U+%04X", cp)
		if last > cp {
			fmt.Fprintf(&b, "..U+%04X", last)
		}
		cp = last
	}
	if ranges == 0 {
		return "(none)"
	}
	return b.String()
}

// icuProcess is testdata/idna/icu_uts46.py, running.
type icuProcess struct {
	cmd                     *exec.Cmd
	stdin                   io.WriteCloser
	stdout                  *bufio.Reader
	stderr                  *strings.Builder
	version, unicode, pyicu string
}

// startICU starts the oracle with the first python3 that has the icu module
// and ICU of Unicode 15.0: python3 on $PATH, then /usr/bin/python3 (where
// Debian's python3-icu is, when $PATH's python3 is another one). It skips the
// test when none has the icu module, and fails it when ICU implements another
// Unicode version.
func startICU(t *testing.T) *icuProcess {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "idna", "icu_uts46.py"))
	if err != nil {
		t.Fatal(err)
	}
	var pythons, tried, wrong []string
	if p, err := exec.LookPath("python3"); err == nil {
		pythons = append(pythons, p)
	}
	if p := "/usr/bin/python3"; len(pythons) == 0 || pythons[0] != p {
		if _, err := os.Stat(p); err == nil {
			pythons = append(pythons, p)
		}
	}
	for _, python := range pythons {
		p := &icuProcess{cmd: exec.Command(python, script), stderr: new(strings.Builder)}
		p.cmd.Stderr = p.stderr
		if p.stdin, err = p.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		out, err := p.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := p.cmd.Start(); err != nil {
			tried = append(tried, fmt.Sprintf("%s: %v", python, err))
			continue
		}
		p.stdout = bufio.NewReaderSize(out, 1<<16)
		header, _ := p.stdout.ReadString('\n')
		f := strings.Fields(header)
		if len(f) == 4 && f[0] == "icu" {
			p.version, p.unicode, p.pyicu = f[1], f[2], f[3]
			if p.unicode == "15.0" || p.unicode == "15.0.0" {
				t.Cleanup(func() {
					if p.cmd.ProcessState == nil {
						p.cmd.Process.Kill()
						p.cmd.Wait()
					}
				})
				return p
			}
			wrong = append(wrong, fmt.Sprintf("%s: ICU %s, Unicode %s", python, p.version, p.unicode))
		} else if header == "" || f[0] == "no-icu" { // no icu module, or a python3 that does not run
			tried = append(tried, fmt.Sprintf("%s: %s", python, strings.TrimSpace(header+" "+p.stderr.String())))
		} else {
			p.stdin.Close()
			err := p.cmd.Wait()
			t.Fatalf("%s: %v, first line %q; stderr: %s", p.cmd, err, header, p.stderr.String())
		}
		p.stdin.Close()
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
	if len(wrong) > 0 {
		t.Fatalf("the ICU oracle is not of Unicode 15.0, the version canon pins (%s), so it cannot check canon: "+
			"every change between the versions would show as a disagreement. Give this test an ICU of Unicode 15.0 "+
			"(ICU 72: Debian bookworm's python3-icu; e.g. a bookworm CI image, or PyICU built against ICU 72 "+
			"first on $PATH); do not move canon's pin to match the oracle, which changes keys", strings.Join(wrong, "; "))
	}
	if len(tried) == 0 {
		tried = []string{"no python3 on $PATH or at /usr/bin/python3"}
	}
	t.Skipf("python3-icu is not installed: apt-get install -y python3-icu (%s)", strings.Join(tried, "; "))
	return nil
}
