package pdfcheck

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// parseShown parses one object as `qpdf --show-object` prints it (PDF
// syntax) into the form of qpdf's JSON version 2, except that every string
// is "b:" and its exact bytes in hex: what qpdf's JSON cannot say of a
// string it shows as "u:" text (it decodes UTF-16 after either byte-order
// mark, UTF-8 after its mark and PDFDocEncoding alike).
func parseShown(s string) (any, error) {
	p := &shownParser{s: s}
	v, err := p.value()
	if err != nil {
		return nil, fmt.Errorf("qpdf --show-object at byte %d: %w", p.i, err)
	}
	return v, nil
}

type shownParser struct {
	s string
	i int
}

func (p *shownParser) skip() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n\f\x00", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *shownParser) value() (any, error) {
	p.skip()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("unexpected end")
	}
	switch c := p.s[p.i]; {
	case strings.HasPrefix(p.s[p.i:], "<<"):
		p.i += 2
		d := map[string]any{}
		for {
			p.skip()
			if strings.HasPrefix(p.s[p.i:], ">>") {
				p.i += 2
				return d, nil
			}
			k, err := p.value()
			if err != nil {
				return nil, err
			}
			name, ok := k.(string)
			if !ok || !strings.HasPrefix(name, "/") {
				return nil, fmt.Errorf("dictionary key %v is not a name", k)
			}
			if d[name], err = p.value(); err != nil {
				return nil, err
			}
		}
	case c == '[':
		p.i++
		a := []any{}
		for {
			p.skip()
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return a, nil
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
	case c == '<':
		end := strings.IndexByte(p.s[p.i:], '>')
		if end < 0 {
			return nil, fmt.Errorf("unclosed hex string")
		}
		h := strings.Join(strings.Fields(p.s[p.i+1:p.i+end]), "")
		p.i += end + 1
		if len(h)%2 == 1 {
			h += "0"
		}
		b, err := hex.DecodeString(h)
		if err != nil {
			return nil, err
		}
		return "b:" + hex.EncodeToString(b), nil
	case c == '(':
		return p.literal()
	case c == '/':
		j := p.i + 1
		for j < len(p.s) && strings.IndexByte(" \t\r\n\f\x00()<>[]{}/%", p.s[j]) < 0 {
			j++
		}
		name := p.s[p.i:j]
		p.i = j
		return name, nil
	default:
		j := p.i
		for j < len(p.s) && strings.IndexByte(" \t\r\n\f\x00()<>[]{}/%", p.s[j]) < 0 {
			j++
		}
		tok := p.s[p.i:j]
		if tok == "" {
			return nil, fmt.Errorf("unexpected %q", c)
		}
		p.i = j
		// N G R: a reference, as qpdf's JSON writes it.
		save := p.i
		var gen, r string
		p.skip()
		if g, ok := p.token(); ok {
			p.skip()
			if rr, ok := p.token(); ok {
				gen, r = g, rr
			}
		}
		if r == "R" {
			if _, err := strconv.Atoi(tok); err == nil {
				if _, err := strconv.Atoi(gen); err == nil {
					return tok + " " + gen + " R", nil
				}
			}
		}
		p.i = save
		switch tok {
		case "true":
			return true, nil
		case "false":
			return false, nil
		case "null":
			return nil, nil
		}
		f, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			return nil, fmt.Errorf("unknown token %q", tok)
		}
		return f, nil
	}
}

func (p *shownParser) token() (string, bool) {
	j := p.i
	for j < len(p.s) && strings.IndexByte(" \t\r\n\f\x00()<>[]{}/%", p.s[j]) < 0 {
		j++
	}
	if j == p.i {
		return "", false
	}
	t := p.s[p.i:j]
	p.i = j
	return t, true
}

// literal reads a literal string with the escapes of ISO 32000-1 §7.3.4.2.
func (p *shownParser) literal() (any, error) {
	p.i++ // (
	var b []byte
	depth := 1
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return "b:" + hex.EncodeToString(b), nil
			}
		case '\\':
			if p.i >= len(p.s) {
				return nil, fmt.Errorf("unclosed literal string")
			}
			e := p.s[p.i]
			p.i++
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if p.i < len(p.s) && p.s[p.i] == '\n' {
					p.i++
				}
				continue
			case '\n':
				continue
			default:
				if e >= '0' && e <= '7' {
					n := int(e - '0')
					for k := 0; k < 2 && p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '7'; k++ {
						n = n*8 + int(p.s[p.i]-'0')
						p.i++
					}
					c = byte(n)
				} else {
					c = e
				}
			}
		}
		b = append(b, c)
	}
	return nil, fmt.Errorf("unclosed literal string")
}
