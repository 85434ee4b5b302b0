package webcapture

import (
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// LocalDisk is the title of the bookmark of pages captured from file: URLs,
// Acrobat's English "Local Disk" (its localized versions wrote "Disco
// locale", "ローカルディスク", ...).
const LocalDisk = "Local Disk"

// SiteTitle is the title of the bookmark a captured page is filed under,
// as Acrobat titles it: the registrable domain of the page's URL (the
// public suffix plus one label, from the public-suffix list:
// www.jamestown.org gives jamestown.org, java.sun.com gives sun.com,
// news.bbc.co.uk gives bbc.co.uk), in Unicode when it is an
// internationalized name; the host itself when it has no registrable
// domain (an IP address, localhost, a public suffix); LocalDisk for a
// file: URL. The port is left out.
func SiteTitle(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	if strings.EqualFold(u.Scheme, "file") {
		return LocalDisk
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return rawURL
	}
	if net.ParseIP(host) != nil {
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	site := host
	if ascii, err := idna.Lookup.ToASCII(host); err == nil {
		if d, err := publicsuffix.EffectiveTLDPlusOne(ascii); err == nil {
			site = d
		} else {
			site = ascii
		}
	}
	if uni, err := idna.Display.ToUnicode(site); err == nil {
		return uni
	}
	return site
}
