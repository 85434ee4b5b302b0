package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/webcap/webcap/internal/browsertest"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/shard"
)

// The Kubernetes recipe for many sites (docs/k8s/capture-job.yaml), as a
// machine runs it: its pods' command for each of its 4 indexes over 20
// local sites; one pod is killed (SIGKILL) while it captures a seed in the
// middle of its shard, and retried, as Kubernetes retries an index. The
// outputs must be one run's over the whole list: the same file names, the
// same identifiers (/IDS keys), the same page counts.
func TestCaptureShardsKilledResumed(t *testing.T) {
	browsertest.Chromium(t)
	job := readJob(t, "../../docs/k8s/capture-job.yaml")
	n := job.Spec.Completions
	pod := job.Spec.Template.Spec.Containers[0].Command
	dir := t.TempDir()
	webcap := webcapBinary(t, dir)

	// 20 sites of 3 pages and an image; one site's second page holds its
	// answer, the first time it is asked for, until the pod is killed.
	hold, killedPod := make(chan struct{}), make(chan struct{})
	var holdOnce sync.Once
	var holdURL string
	var list []string
	for k := range 20 {
		k := k
		mux := http.NewServeMux()
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/", "/a.html", "/b.html":
				if r.Host+r.URL.Path == holdURL {
					held := false
					holdOnce.Do(func() { held = true })
					if held {
						close(hold)
						<-killedPod
						return
					}
				}
				fmt.Fprintf(w, `<!doctype html><title>Site %d %s</title><h1>Site %d</h1><p>%s</p><img src="/i.svg"><a href="/a.html">a</a> <a href="/b.html">b</a>`,
					k, r.URL.Path, k, strings.Repeat("words ", 20*k+1))
			case "/i.svg":
				w.Header().Set("Content-Type", "image/svg+xml")
				fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="%d"/></svg>`, 5+k)
			case "/robots.txt":
				http.NotFound(w, r)
			default:
				http.NotFound(w, r)
			}
		})
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		list = append(list, srv.URL+"/ --levels 2")
	}
	// The pod killed is the one of the largest shard, in its third seed.
	count := make([]int, n)
	for _, l := range list {
		count[shard.Of(strings.Fields(l)[0], n)]++
	}
	victim := 0
	for i := range n {
		if count[i] > count[victim] {
			victim = i
		}
	}
	var mine []string
	for _, l := range list {
		if u := strings.Fields(l)[0]; shard.Of(u, n) == victim {
			mine = append(mine, u)
		}
	}
	holdURL = strings.TrimPrefix(mine[2], "http://") + "a.html"
	seedList := filepath.Join(dir, "seeds", "list.txt")
	writeFile(t, seedList, []byte("# 20 local sites\n"+strings.Join(list, "\n")+"\n"))
	captures := filepath.Join(dir, "captures")
	os.MkdirAll(captures, 0o755)

	script := strings.NewReplacer("/seeds", filepath.Dir(seedList), "/captures", captures).Replace(pod[2])
	podCmd := func(index int) *exec.Cmd {
		cmd := exec.Command(pod[0], pod[1], script)
		cmd.Env = append(os.Environ(), fmt.Sprintf("JOB_COMPLETION_INDEX=%d", index), "PATH="+filepath.Dir(webcap)+":"+os.Getenv("PATH"))
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return cmd
	}

	killed := podCmd(victim)
	if err := killed.Start(); err != nil {
		t.Fatal(err)
	}
	<-hold // the pod is in its shard's third seed
	syscall.Kill(-killed.Process.Pid, syscall.SIGKILL)
	killed.Wait()
	close(killedPod)
	before := jsonLines(t, filepath.Join(captures, fmt.Sprintf("shard-%d.jsonl", victim)))
	if len(before) != 2 {
		t.Errorf("the killed pod wrote %d lines, want 2 (its shard's first two seeds)", len(before))
	}

	for i := range n {
		if out, err := podCmd(i).CombinedOutput(); err != nil { // the victim retried: it resumes
			t.Fatalf("pod %d: %v\n%s", i, err, out)
		}
	}
	kept := 0
	for i := range n {
		for _, r := range jsonLines(t, filepath.Join(captures, fmt.Sprintf("shard-%d.jsonl", i))) {
			if r.Status == "kept" {
				kept++
			} else if r.Status != "captured" {
				t.Errorf("shard %d: %s: %s (%s)", i, r.Seed, r.Status, r.Message)
			}
		}
	}
	if kept != 2 {
		t.Errorf("the retried pod kept %d seeds, want the 2 it completed", kept)
	}

	one := filepath.Join(dir, "one")
	out, err := exec.Command(webcap, "capture", "--urls-from", seedList, "--out-dir", one, "--warc", one, "--progress", "none", "--jsonl").CombinedOutput()
	if err != nil {
		t.Fatalf("one run: %v\n%s", err, out)
	}
	sharded, whole := captured(t, captures), captured(t, one)
	if len(whole) != 20 {
		t.Errorf("one run wrote %d PDFs, want 20", len(whole))
	}
	if !slices.Equal(keys(sharded), keys(whole)) {
		t.Errorf("file names differ:\n shards %v\n one run %v", keys(sharded), keys(whole))
	}
	for name, w := range whole {
		if s := sharded[name]; s != w {
			t.Errorf("%s: shards %s, one run %s", name, s, w)
		}
	}
	for name := range whole {
		w := strings.TrimSuffix(name, ".pdf") + ".warc.gz"
		if _, err := os.Stat(filepath.Join(captures, w)); err != nil {
			t.Errorf("%s: no WARC in the shards' outputs: %v", name, err)
		}
	}
	t.Logf("%d seeds in %d shards (%v); pod %d killed in its third seed", len(list), n, count, victim)
}

type seedLine struct {
	Seed, Status, Message string
}

func jsonLines(t *testing.T, path string) []seedLine {
	t.Helper()
	var out []seedLine
	for _, l := range lines(t, path) {
		if l == "" {
			continue
		}
		var r seedLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%s: %v: %q", path, err, l)
		}
		out = append(out, r)
	}
	return out
}

// captured is each PDF of dir, by name: its page count and its sorted
// /IDS keys.
func captured(t *testing.T, dir string) map[string]string {
	t.Helper()
	pdfs, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	out := map[string]string{}
	for _, p := range pdfs {
		d, err := pdfio.Open(p, pdfio.Options{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var ids []string
		if d.IDS != nil {
			for _, e := range d.IDS.Entries {
				ids = append(ids, fmt.Sprintf("%X", e.Key))
			}
		}
		slices.Sort(ids)
		out[filepath.Base(p)] = fmt.Sprintf("%d pages, IDS %v", len(d.Pages), ids)
	}
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// The capture Job's manifest: an Indexed Job whose pods take their shard
// by their index, resume, and write to the volume; docs/scale.md shows
// its command as it is.
func TestK8sCaptureJobManifest(t *testing.T) {
	job := readJob(t, "../../docs/k8s/capture-job.yaml")
	s := job.Spec
	script := s.Template.Spec.Containers[0].Command[2]
	switch {
	case job.Kind != "Job" || job.APIVersion != "batch/v1":
		t.Errorf("kind %s %s, want batch/v1 Job", job.APIVersion, job.Kind)
	case s.CompletionMode != "Indexed":
		t.Errorf("completionMode %q, want Indexed", s.CompletionMode)
	case s.Completions != 4:
		t.Errorf("completions %d, want the 4 the browser test runs", s.Completions)
	case !strings.Contains(script, fmt.Sprintf(`--shard "$JOB_COMPLETION_INDEX/%d"`, s.Completions)):
		t.Errorf("the command does not take shard $JOB_COMPLETION_INDEX/%d (completions): %s", s.Completions, script)
	case !strings.Contains(script, "--resume") || !strings.Contains(script, "--out-dir /captures"):
		t.Errorf("the command does not resume into /captures: %s", script)
	case s.Template.Spec.RestartPolicy != "Never":
		t.Errorf("restartPolicy %q, want Never (podFailurePolicy needs it)", s.Template.Spec.RestartPolicy)
	}
	doc, err := os.ReadFile("../../docs/scale.md")
	if err != nil {
		t.Fatal(err)
	}
	cmd, _, _ := strings.Cut(script, "\ns=$?")
	if !strings.Contains(string(doc), cmd) {
		t.Errorf("docs/scale.md does not show the pod's command:\n%s", cmd)
	}
}
