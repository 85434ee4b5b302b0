package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/htmlsafe"
)

// How every command shows things in plain text.

// displayInput shows an input as it is when it is printable, and quoted
// otherwise, so that control characters never reach the terminal
// (htmlsafe.Display: the HTML report shows strings the same way).
func displayInput(s string) string { return htmlsafe.Display(s) }

// shownURL is a URL read from a file as info shows it, in text and JSON:
// without its password (audit.WithoutPassword, the rule audit's messages
// and the HTML report follow).
func shownURL(u string) string {
	u, _ = audit.WithoutPassword(u)
	return u
}

// shownSkips are skips as webcap shows them: their URLs, and the URLs
// their reasons quote, without a password (a crawl's URLs may carry one,
// which only the PDF keeps, and only with --keep-credentials).
func shownSkips(skips []capture.Skip) []capture.Skip {
	out := make([]capture.Skip, len(skips))
	for i, s := range skips {
		s.URL, s.Reason = shownURL(s.URL), audit.WithoutPasswords(s.Reason)
		out[i] = s
	}
	return out
}

// shownChains are redirect chains without their URLs' passwords.
func shownChains(chains [][]string) [][]string {
	if chains == nil {
		return nil
	}
	out := make([][]string, len(chains))
	for i, c := range chains {
		out[i] = make([]string, len(c))
		for j, u := range c {
			out[i][j] = shownURL(u)
		}
	}
	return out
}

// urlJSON is shownURL(u) for JSON.
func urlJSON(u string) bytesJSON { return bytesJSON(shownURL(u)) }

// plural says "1 page", "2 pages".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// pageRanges writes page numbers as "1-3, 5"; 0 (not a page) as "?".
func pageRanges(nums []int) string {
	var parts []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[i] != 0 && nums[j+1] == nums[j]+1 {
			j++
		}
		switch {
		case nums[i] == 0:
			parts = append(parts, "?")
		case j > i:
			parts = append(parts, fmt.Sprintf("%d-%d", nums[i], nums[j]))
		default:
			parts = append(parts, strconv.Itoa(nums[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// pageList writes the first and last of a run of pages: "1-3".
func pageList(p []int) string {
	switch len(p) {
	case 0:
		return "-"
	case 1:
		return fmt.Sprint(p[0])
	}
	return fmt.Sprintf("%d-%d", p[0], p[len(p)-1])
}

// sizeOf writes a number of bytes in IEC units (go-humanize): "512 B",
// "1.5 KiB", "2.0 MiB".
func sizeOf(n int64) string {
	return humanize.IBytes(uint64(max(n, 0)))
}

// printableASCII reports whether s is printable ASCII, space to tilde.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// printer writes formatted text and keeps the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}
