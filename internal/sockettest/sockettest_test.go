package sockettest

import (
	"io"
	"net"
	"strings"
	"testing"
)

func TestRecorder(t *testing.T) {
	r, err := Listen()
	if err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct{ name, addr, send, want string }{
		{"http", "127.0.0.1", "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n", `: "GET /ws HTTP/1.1"`},
		{"tls", "::1", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", ": a TLS ClientHello"},
		{"nothing", "127.0.0.1", "", ": a connection (nothing sent)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", net.JoinHostPort(tc.addr, r.Port()))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			io.WriteString(c, tc.send)
			c.(*net.TCPConn).CloseWrite()
			io.Copy(io.Discard, c) // until the Recorder closes it: it has read
		})
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}
	got := r.Got()
	if len(got) != 3 {
		t.Fatalf("Got() = %q, want 3 records", got)
	}
	for i, want := range []string{`: "GET /ws HTTP/1.1"`, ": a TLS ClientHello", ": a connection (nothing sent)"} {
		if !strings.HasSuffix(got[i], want) {
			t.Errorf("Got()[%d] = %q, want it to end in %q", i, got[i], want)
		}
	}
}

func TestPage(t *testing.T) {
	for _, tc := range []struct{ path, metadata, ctype, want, bad string }{
		{"/p", MetadataVector, "text/html; charset=utf-8", `<link rel=preconnect href="http://169.254.169.254/">`, "{B}"},
		{"/p", "", "text/html; charset=utf-8", `new WebSocket("ws://127.0.0.1:4321/ws")`, "{metadata}"},
		{"/worker.js", "", "text/javascript", "http://127.0.0.1:4321/worker", "{B}"},
	} {
		body, ctype, ok := Page(tc.path, "4321", tc.metadata)
		if !ok || ctype != tc.ctype || !strings.Contains(body, tc.want) || strings.Contains(body, tc.bad) {
			t.Errorf("Page(%q, 4321, %q) = %d bytes, %q, %v; want %q in it, not %q, of type %q", tc.path, tc.metadata, len(body), ctype, ok, tc.want, tc.bad, tc.ctype)
		}
	}
	for _, p := range Paths {
		if _, _, ok := Page(p, "1", ""); !ok {
			t.Errorf("Paths has %s, which has no page", p)
		}
	}
	if _, _, ok := Page("/none", "1", ""); ok {
		t.Error(`Page("/none") is a page`)
	}
}
