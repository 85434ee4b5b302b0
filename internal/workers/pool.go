package workers

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"os/exec"
	"strings"
	"sync"
	"time"
)

// Config says how to start a worker and when to replace it.
type Config struct {
	Path string   // the program
	Args []string // its arguments, Args[0] (the name it runs as) included
	Env  []string // its environment; nil: this process's

	Timeout   time.Duration // a task's time limit; 0: none
	Recycle   int           // tasks before a worker is replaced; 0: never
	MaxMemory int64         // the memory a task may take (LimitMemory's max); 0: no limit
}

// ErrTimeout is the error of a task that ran past Config.Timeout.
var ErrTimeout = errors.New("time limit passed")

// CrashError is the error of a task whose worker died, or answered with
// no line, before it was done.
type CrashError struct {
	Err         error  // from the process's wait: its exit status
	Stderr      string // the last line the worker wrote on stderr
	OutOfMemory bool   // it ran out of memory, or the parent killed it for its size
}

func (e *CrashError) Error() string {
	msg := "the worker failed"
	if e.OutOfMemory {
		msg = "the worker ran out of memory"
	}
	if e.Err != nil {
		msg += " (" + e.Err.Error() + ")"
	}
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

func (e *CrashError) Unwrap() error { return e.Err }

// Pool is a set of workers. Do can be called from many goroutines; at most
// n tasks run at once, one per worker.
type Pool struct {
	cfg   Config
	slots chan *proc // nil: no process started in this slot yet
	mu    sync.Mutex
	live  map[*proc]bool
}

// New returns a pool of n workers, started when first needed.
func New(cfg Config, n int) *Pool {
	p := &Pool{cfg: cfg, slots: make(chan *proc, n), live: map[*proc]bool{}}
	for range n {
		p.slots <- nil
	}
	return p
}

// Do runs one task: task is a line for the worker (without its newline),
// the answer is the worker's line (without its newline). An error is
// ErrTimeout, a *CrashError, the context's error, or a failure to start
// the worker.
func (p *Pool) Do(ctx context.Context, task []byte) ([]byte, error) {
	if bytes.IndexByte(task, '\n') >= 0 {
		return nil, errors.New("workers: a task is one line")
	}
	var w *proc
	select {
	case w = <-p.slots:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if w == nil {
		var err error
		if w, err = p.start(); err != nil {
			p.slots <- nil
			return nil, err
		}
	}
	answer, err := w.do(ctx, task, p.cfg)
	switch {
	case err != nil:
		p.stop(w, true)
		w = nil
	case p.cfg.Recycle > 0 && w.tasks >= p.cfg.Recycle:
		p.stop(w, false)
		w = nil
	}
	p.slots <- w
	return answer, err
}

// Close stops every worker: each sees the end of its stdin and exits.
func (p *Pool) Close() error {
	for range cap(p.slots) {
		if w := <-p.slots; w != nil {
			p.stop(w, false)
		}
	}
	return nil
}

func (p *Pool) start() (*proc, error) {
	cmd := exec.Command(p.cfg.Path)
	cmd.Args = p.cfg.Args
	cmd.Env = p.cfg.Env
	detach(cmd)
	w := &proc{cmd: cmd, stderr: &tail{}}
	cmd.Stderr = w.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("workers: starting %s: %w", p.cfg.Path, err)
	}
	w.in = in
	w.lines = make(chan []byte)
	w.readDone = make(chan struct{})
	go w.read(out)
	p.mu.Lock()
	p.live[w] = true
	p.mu.Unlock()
	return w, nil
}

// stop ends a worker, killed or by the end of its stdin, and waits for it.
func (p *Pool) stop(w *proc, kill bool) {
	if kill {
		_ = w.cmd.Process.Kill()
	}
	_ = w.in.Close()
	<-w.readDone
	_ = w.cmd.Wait()
	p.mu.Lock()
	delete(p.live, w)
	p.mu.Unlock()
}

// proc is one worker process.
type proc struct {
	cmd      *exec.Cmd
	in       io.WriteCloser
	lines    chan []byte   // its answers; closed at the end of its stdout
	readDone chan struct{} // closed when read returns
	stderr   *tail
	tasks    int
}

func (w *proc) read(out io.Reader) {
	defer close(w.readDone)
	defer close(w.lines)
	r := bufio.NewReaderSize(out, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return
		}
		w.lines <- bytes.TrimSuffix(line, []byte("\n"))
	}
}

func (w *proc) do(ctx context.Context, task []byte, cfg Config) ([]byte, error) {
	w.tasks++
	if _, err := w.in.Write(append(task, '\n')); err != nil {
		return nil, w.crashed(cfg.MaxMemory)
	}
	var timeout <-chan time.Time
	if cfg.Timeout > 0 {
		t := time.NewTimer(cfg.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var watch <-chan time.Time
	if cfg.MaxMemory > 0 && canWatch {
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		watch = t.C
	}
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				return nil, w.crashed(cfg.MaxMemory)
			}
			return line, nil
		case <-timeout:
			return nil, ErrTimeout
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-watch:
			if rss(w.cmd.Process.Pid) > cfg.MaxMemory+restSize {
				_ = w.cmd.Process.Kill()
				<-w.readDone
				_ = w.cmd.Wait()
				return nil, &CrashError{Err: fmt.Errorf("killed over the %s memory limit", sizeString(cfg.MaxMemory)), OutOfMemory: true}
			}
		}
	}
}

// restSize is what the watch allows a worker on top of MaxMemory: its
// resident size at rest (webcap's: ~21 MiB), and some.
const restSize = 64 << 20

// crashed is the error of a worker whose stdout ended: it waits for the
// process and says how it ended.
func (w *proc) crashed(maxMemory int64) error {
	_ = w.in.Close()
	<-w.readDone
	err := w.cmd.Wait()
	last := w.stderr.lastLine()
	all := w.stderr.String()
	oom := strings.Contains(all, "out of memory") || strings.Contains(all, "cannot allocate memory") ||
		strings.Contains(all, "pthread_create failed") || // a thread's stack is data too
		// A runtime refused memory may also die of a signal in whatever
		// it was doing (a register dump, no word of memory, seen under
		// load): a worker whose peak passed 7/8 of its limit, where its
		// collector starts to strain (LimitMemory), died of it.
		maxMemory > 0 && peakRSS(w.cmd.ProcessState) >= maxMemory/8*7
	if err == nil {
		err = errors.New("it gave no answer")
	}
	return &CrashError{Err: err, Stderr: last, OutOfMemory: oom}
}

func sizeString(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// tail keeps the last bytes a worker writes on stderr: what a crash says
// (a Go runtime's fatal error is at the top of its trace, so the first
// kilobytes are kept too).
type tail struct {
	mu   sync.Mutex
	head []byte
	last []byte
}

const tailSize = 4 << 10

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := min(tailSize-len(t.head), len(b)); n > 0 {
		t.head = append(t.head, b[:n]...)
	}
	t.last = append(t.last, b...)
	if len(t.last) > tailSize {
		t.last = append(t.last[:0], t.last[len(t.last)-tailSize:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.head) + string(t.last)
}

// lastLine is the line that says what happened: the runtime's "fatal
// error: ..." when there is one, else the last line written.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range strings.Split(string(t.head)+"\n"+string(t.last), "\n") {
		if strings.HasPrefix(l, "fatal error: ") || strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "runtime/cgo: ") {
			return l
		}
	}
	lines := strings.Split(strings.TrimSpace(string(t.last)), "\n")
	return lines[len(lines)-1]
}
