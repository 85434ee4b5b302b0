package webcapture

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// A Date is a PDF date string (PDF 1.7 §3.8.3): D:YYYYMMDDHHmmSSOHH'mm', where
// everything after the year is optional. Raw keeps the string as the file has
// it; Time and Valid are set when it parses.
type Date struct {
	Raw   string
	Time  time.Time
	Valid bool
	// Zone tells whether the string gave a time zone (Z, +HH'mm' or
	// -HH'mm'); without one, Time is in UTC by convention.
	Zone bool
}

// String returns the date in RFC 3339 form when it parses, and the raw text,
// quoted, when it does not.
func (d Date) String() string {
	if !d.Valid {
		return strconv.Quote(d.Raw)
	}
	if !d.Zone {
		return d.Time.Format("2006-01-02T15:04:05") + " (no zone)"
	}
	return d.Time.Format(time.RFC3339)
}

// ParseDate parses a PDF date string. It accepts what real files hold: the
// "D:" prefix may be missing, fields after the year may be missing, the zone
// may be a bare "Z" (Acrobat 6.0 to 15.0) or absent (Acrobat 5.0), and the
// apostrophes after the zone hour and minute are optional. The returned Date
// always keeps raw; the error says what did not parse.
func ParseDate(raw string) (Date, error) {
	d := Date{Raw: raw}
	s := raw
	if len(s) >= 2 && s[:2] == "D:" {
		s = s[2:]
	}
	num := func(n, lo, hi int, what string) (int, error) {
		if len(s) < n {
			return 0, fmt.Errorf("webcapture: date %q: %s is cut short", raw, what)
		}
		v, err := strconv.Atoi(s[:n])
		if err != nil || v < lo || v > hi || s[0] == '+' || s[0] == '-' {
			return 0, fmt.Errorf("webcapture: date %q: bad %s %q", raw, what, s[:n])
		}
		s = s[n:]
		return v, nil
	}
	f := [6]int{0, 1, 1, 0, 0, 0}
	fields := [...]struct {
		n, lo, hi int
		what      string
	}{{4, 0, 9999, "year"}, {2, 1, 12, "month"}, {2, 1, 31, "day"}, {2, 0, 23, "hour"}, {2, 0, 59, "minute"}, {2, 0, 59, "second"}}
	for i, fl := range fields {
		if i > 0 && (s == "" || s[0] < '0' || s[0] > '9') {
			break
		}
		v, err := num(fl.n, fl.lo, fl.hi, fl.what)
		if err != nil {
			return d, err
		}
		f[i] = v
	}
	loc := time.UTC
	if s != "" {
		var err error
		if loc, err = parseZone(raw, s); err != nil {
			return d, err
		}
		d.Zone = true
	}
	t := time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], 0, loc)
	if t.Day() != f[2] {
		return d, fmt.Errorf("webcapture: date %q: no day %d in that month", raw, f[2])
	}
	d.Time, d.Valid = t, true
	return d, nil
}

// parseZone parses "Z", "Z00'00'", "+HH", "+HH'", "+HH'mm", "+HH'mm'".
func parseZone(raw, s string) (*time.Location, error) {
	zone, err := parseOffset(s)
	if err != nil {
		return nil, fmt.Errorf("webcapture: date %q: bad time zone %q", raw, s)
	}
	return zone, nil
}

var errZone = errors.New("bad time zone")

func parseOffset(s string) (*time.Location, error) {
	bad := errZone
	sign := 1
	switch s[0] {
	case 'Z':
		if s == "Z" || s == "Z00'00'" || s == "Z00'00" || s == "Z00" {
			return time.UTC, nil
		}
		return nil, bad
	case '+':
	case '-':
		sign = -1
	default:
		return nil, bad
	}
	s = s[1:]
	if len(s) < 2 {
		return nil, bad
	}
	hh, err := strconv.Atoi(s[:2])
	if err != nil || hh > 23 {
		return nil, bad
	}
	s = s[2:]
	if s != "" && s[0] == '\'' {
		s = s[1:]
	}
	mm := 0
	if s != "" {
		if len(s) < 2 {
			return nil, bad
		}
		if mm, err = strconv.Atoi(s[:2]); err != nil || mm > 59 {
			return nil, bad
		}
		s = s[2:]
		if s == "'" {
			s = ""
		}
	}
	if s != "" {
		return nil, bad
	}
	off := sign * (hh*3600 + mm*60)
	return time.FixedZone(fmt.Sprintf("%+03d%02d", sign*hh, mm), off), nil
}
