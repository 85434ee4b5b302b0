package seeds

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"net/url"
	"strings"
)

// maxSlug bounds the readable part of a name, in bytes.
const maxSlug = 60

// Name is the base name (without extension) of a seed's outputs: a slug
// of its host, port and path (lower-case letters, digits, "." and "-";
// every other run of bytes is one "-"), at most 60 bytes, then "-" and the
// first 16 hex digits of the SHA-256 of the seed as written. So
// "https://Example.com/docs/a b" is "example.com-docs-a-20b-" and its hash.
func Name(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	return slug(seed) + "-" + hex.EncodeToString(sum[:8])
}

// hash64 is the hash in a seed's name, as a number: two seeds with the
// same have the same name only if their slugs agree too, and Read
// refuses both.
func hash64(seed string) uint64 {
	sum := sha256.Sum256([]byte(seed))
	return binary.BigEndian.Uint64(sum[:8])
}

func slug(seed string) string {
	text := seed
	if u, err := url.Parse(seed); err == nil && u.Host != "" {
		text = u.Host + "/" + u.EscapedPath()
	} else if _, rest, ok := strings.Cut(seed, "://"); ok {
		text = rest
	}
	var b strings.Builder
	dash := false
	for i := 0; i < len(text) && b.Len() < maxSlug; i++ {
		c := text[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '.' && !dash && b.Len() > 0 && !strings.HasSuffix(b.String(), "."):
		default:
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		dash = false
		b.WriteByte(c)
	}
	s := strings.Trim(b.String(), ".-")
	if s == "" {
		return "seed"
	}
	return s
}
