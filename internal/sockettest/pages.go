// Package sockettest holds what the tests of the browser's own sockets
// (issue 27, item 2) share: the pages that try to make Chromium reach an
// internal service by every socket of its own, and the internal service
// itself, a Recorder listening on one port of both loopback addresses.
// capture's TestBrowserOwnSockets renders the pages with the library;
// internal/hostile's browser-sockets cases run webcap on them under strace,
// in a network namespace. One set of vectors: a vector added here is tried
// by both.
//
//	inner, err := sockettest.Listen()
//	...
//	body, ctype, ok := sockettest.Page("/p", inner.Port(), "")
//	...
//	if got := inner.Got(); len(got) > 0 { /* the page reached it */ }
package sockettest

import "strings"

// pages are the vectors' pages by path: {B} is the internal service's
// port, {metadata} the cloud metadata vector's place (MetadataVector, or
// nothing).
var pages = map[string]string{
	"/p": `<!doctype html><title>Sockets</title>
<link rel=preconnect href="http://127.0.0.1:{B}/">
<link rel=preconnect href="https://127.0.0.1:{B}/">
<link rel=dns-prefetch href="http://webcap-inner.example:{B}/">
<link rel=prefetch href="http://127.0.0.1:{B}/prefetch">
<link rel=prerender href="http://127.0.0.1:{B}/prerender">
<link rel=modulepreload href="http://127.0.0.1:{B}/mod.js">
{metadata}
<p>Outer page.</p>
<iframe src="http://127.0.0.1:{B}/f1"></iframe>
<iframe src="http://localhost:{B}/f2"></iframe>
<iframe src="http://[::1]:{B}/f3"></iframe>
<iframe src="/framed"></iframe>
<video src="http://127.0.0.1:{B}/video.webm" autoplay muted></video>
<object data="http://127.0.0.1:{B}/object.html"></object>
<script>
try { new WebSocket("ws://127.0.0.1:{B}/ws"); } catch (e) {}
try { new WebSocket("wss://localhost:{B}/wss"); } catch (e) {}
fetch("http://127.0.0.1:{B}/fetch").catch(() => {});
try { const x = new XMLHttpRequest(); x.open("GET", "http://[::1]:{B}/xhr"); x.send(); } catch (e) {}
try { navigator.sendBeacon("http://127.0.0.1:{B}/beacon", "x"); } catch (e) {}
try { new Worker("/worker.js"); } catch (e) {}
try { new SharedWorker("/shared.js"); } catch (e) {}
try { window.open("http://127.0.0.1:{B}/popup"); } catch (e) {}
try { new EventSource("http://127.0.0.1:{B}/events"); } catch (e) {}
try { new WebTransport("https://127.0.0.1:{B}/wt"); } catch (e) {}
for (const url of ["stun:127.0.0.1:{B}", "turn:127.0.0.1:{B}?transport=udp", "turn:[::1]:{B}?transport=tcp"]) {
	try {
		const pc = new RTCPeerConnection({iceServers: [{urls: url, username: "u", credential: "p"}]});
		pc.createDataChannel("x");
		pc.createOffer().then(o => pc.setLocalDescription(o)).catch(() => {});
	} catch (e) {}
}
</script>`,
	"/framed":    `<!doctype html><title>Framed</title><p>A frame.</p><img src="http://127.0.0.1:{B}/in-frame.gif">`,
	"/worker.js": `fetch("http://127.0.0.1:{B}/worker").catch(() => {}); try { new WebSocket("ws://127.0.0.1:{B}/worker-ws"); } catch (e) {}`,
	"/shared.js": `fetch("http://127.0.0.1:{B}/shared").catch(() => {});`,
	"/meta":      `<!doctype html><title>Meta</title><meta http-equiv=refresh content="0; url=http://127.0.0.1:{B}/meta"><p>Meta refresh.</p>`,
	"/script":    `<!doctype html><title>Script</title><p>Script navigation.</p><script>location = "http://localhost:{B}/script";</script>`,
	"/form":      `<!doctype html><title>Form</title><p>Form.</p><form method=post action="http://127.0.0.1:{B}/form"><input name=a value=b></form><script>document.forms[0].submit();</script>`,
}

// Paths are the paths of the pages to start from: the others (a frame, the
// workers' scripts) are loaded by them.
var Paths = []string{"/p", "/meta", "/script", "/form"}

// MetadataVector is a preconnect to the cloud metadata address, for
// Page's metadata: only for a browser in a network namespace that has
// nothing but loopback, where the address leads nowhere.
const MetadataVector = `<link rel=preconnect href="http://169.254.169.254/">`

// Page is the page at path, its vectors aimed at port, with metadata
// (MetadataVector or "") in its place, and its content type; ok is false
// when there is no page at path.
func Page(path, port, metadata string) (body, contentType string, ok bool) {
	page, ok := pages[path]
	if !ok {
		return "", "", false
	}
	contentType = "text/html; charset=utf-8"
	if Script(path) {
		contentType = "text/javascript"
	}
	return strings.NewReplacer("{B}", port, "{metadata}", metadata).Replace(page), contentType, true
}

// Script reports whether the page at path is a script (a worker's), not
// a document.
func Script(path string) bool { return strings.HasSuffix(path, ".js") }
