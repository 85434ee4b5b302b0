package sockettest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"
)

// A Recorder is the internal service a page must not reach: it listens
// on one port of 127.0.0.1 and [::1], TCP and UDP, and records every
// connection it accepts (with the first line sent on it, a TLS
// ClientHello named as such) and every datagram it gets. A connection is
// recorded as soon as it is accepted, whether or not anything comes on it
// (a preconnect sends nothing). Its listeners are made by the goroutine
// that calls Listen, in that thread's network namespace.
type Recorder struct {
	port string
	lns  []io.Closer
	wg   sync.WaitGroup

	mu    sync.Mutex
	got   []string
	conns map[net.Conn]bool
	done  bool
}

// How long a connection's first line is waited for, and how much of it
// is read.
const (
	lineWait = 2 * time.Second
	lineMax  = 512
)

// Listen starts a Recorder on a port free on both addresses, TCP and UDP
// (it tries 20).
func Listen() (*Recorder, error) {
	var err error
	for range 20 {
		var lns []io.Closer
		var port string
		if lns, port, err = listenBoth(); err == nil {
			r := &Recorder{port: port, lns: lns, conns: map[net.Conn]bool{}}
			r.start()
			return r, nil
		}
	}
	return nil, fmt.Errorf("no port free on 127.0.0.1 and [::1], TCP and UDP: %w", err)
}

// listenBoth listens on one port of 127.0.0.1 and [::1], TCP and UDP.
func listenBoth() ([]io.Closer, string, error) {
	l4, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	_, port, _ := net.SplitHostPort(l4.Addr().String())
	out := []io.Closer{l4}
	for _, l := range []struct{ network, addr string }{{"tcp6", "[::1]"}, {"udp4", "127.0.0.1"}, {"udp6", "[::1]"}} {
		var c io.Closer
		if strings.HasPrefix(l.network, "tcp") {
			c, err = net.Listen(l.network, l.addr+":"+port)
		} else {
			c, err = net.ListenPacket(l.network, l.addr+":"+port)
		}
		if err != nil {
			for _, c := range out {
				c.Close()
			}
			return nil, "", err
		}
		out = append(out, c)
	}
	return out, port, nil
}

func (r *Recorder) start() {
	for _, l := range r.lns {
		r.wg.Add(1)
		switch l := l.(type) {
		case net.Listener:
			go r.accept(l)
		case net.PacketConn:
			go r.receive(l)
		}
	}
}

// Port is the port the Recorder listens on.
func (r *Recorder) Port() string { return r.port }

// Got is what reached the Recorder so far, each as "ADDRESS: WHAT".
func (r *Recorder) Got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// Close stops the Recorder: its listeners and the connections it holds
// are closed, and its goroutines have ended when it returns.
func (r *Recorder) Close() error {
	var errs []error
	for _, l := range r.lns {
		errs = append(errs, l.Close())
	}
	r.mu.Lock()
	r.done = true
	for c := range r.conns {
		c.Close()
	}
	r.mu.Unlock()
	r.wg.Wait()
	return errors.Join(errs...)
}

// note records what, and returns its index (for set).
func (r *Recorder) note(what string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, what)
	return len(r.got) - 1
}

func (r *Recorder) accept(l net.Listener) {
	defer r.wg.Done()
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		i := r.note(c.RemoteAddr().String() + ": a connection (nothing sent yet)")
		r.mu.Lock()
		if r.done {
			r.mu.Unlock()
			c.Close()
			return
		}
		r.conns[c] = true
		r.wg.Add(1)
		r.mu.Unlock()
		go r.firstLine(c, i)
	}
}

// firstLine reads c's first line into the record i, and closes c.
func (r *Recorder) firstLine(c net.Conn, i int) {
	defer r.wg.Done()
	c.SetReadDeadline(time.Now().Add(lineWait))
	line, _ := bufio.NewReader(io.LimitReader(c, lineMax)).ReadString('\n')
	c.Close()
	what := fmt.Sprintf("%q", strings.TrimSpace(line))
	switch {
	case strings.HasPrefix(line, "\x16"):
		what = "a TLS ClientHello"
	case line == "":
		what = "a connection (nothing sent)"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.conns, c)
	r.got[i] = c.RemoteAddr().String() + ": " + what
}

func (r *Recorder) receive(l net.PacketConn) {
	defer r.wg.Done()
	buf := make([]byte, 1500)
	for {
		_, a, err := l.ReadFrom(buf)
		if err != nil {
			return
		}
		r.note(a.String() + ": a datagram")
	}
}
