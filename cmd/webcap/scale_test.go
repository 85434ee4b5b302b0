package main

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
	"go.yaml.in/yaml/v3"
)

// The Kubernetes recipe (docs/k8s/audit-job.yaml), as a machine runs it:
// its pods' command for each index, as separate processes on this
// machine, over a generated archive; one pod is killed mid-way (SIGKILL)
// and retried, as Kubernetes retries an index. The shards merged must
// equal one run over the whole archive, byte for byte after sorting: the
// merge is docs/k8s/merge-job.yaml's command (webcap report), run here.
func TestShardsKilledResumedMerged(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a few hundred audits")
	}
	job := readJob(t, "../../docs/k8s/audit-job.yaml")
	n := job.Spec.Completions
	pod := job.Spec.Template.Spec.Containers[0].Command
	dir := t.TempDir()
	webcap := webcapBinary(t, dir)
	archive := filepath.Join(dir, "archive")
	results := filepath.Join(dir, "results")
	os.Mkdir(results, 0o755)
	good, _ := pdfbuild.Sample("capture")
	for k := range 120 {
		writeFile(t, filepath.Join(archive, fmt.Sprintf("d%02d", k%12), fmt.Sprintf("c%03d.pdf", k)), good)
	}
	for _, name := range pdfbuild.HostileSamples() {
		b, _ := pdfbuild.Hostile(name)
		writeFile(t, filepath.Join(archive, "hostile", name+".pdf"), b)
	}
	// The pod's command, with the archive and results where they are here.
	script := strings.NewReplacer("/archive", archive, "/results", results).Replace(pod[2])
	runPod := func(index int) {
		t.Helper()
		cmd := exec.Command(pod[0], pod[1], script)
		cmd.Env = append(os.Environ(), fmt.Sprintf("JOB_COMPLETION_INDEX=%d", index), "PATH="+filepath.Dir(webcap)+":"+os.Getenv("PATH"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pod %d: %v\n%s", index, err, out)
		}
	}

	// Pod 0 is killed while it reads a file in the middle of its shard: a
	// named pipe, which its worker is made to open (a test fault: webcap
	// itself refuses pipes before opening them), and which blocks it until
	// this test opens the other end (so the kill comes at a known point,
	// with no sleep).
	fifo := ""
	for k := 0; fifo == ""; k++ {
		p := filepath.Join(archive, "d05", fmt.Sprintf("p%d.pdf", k))
		if shardOf(p, n) == 0 {
			fifo = p
		}
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	// The walk takes regular files alone: the killed run is given the
	// archive's files, the pipe among them, in a list.
	var list []string
	filepath.WalkDir(archive, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			list = append(list, p)
		}
		return err
	})
	listFile := filepath.Join(dir, "list")
	writeFile(t, listFile, []byte(strings.Join(list, "\n")+"\n"))
	shard0 := filepath.Join(results, "shard-0.jsonl")
	killed := exec.Command(webcap, "audit", "--files-from", listFile, "--progress", "none", "--jobs", "1", "--ordered",
		"--shard", fmt.Sprintf("0/%d", n), "--resume", shard0)
	killed.Env = append(os.Environ(), "WEBCAP_TEST_WORKER_FAULTS=block="+filepath.Base(fifo))
	if err := killed.Start(); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns when the reader opens it
	if err != nil {
		t.Fatal(err)
	}
	killed.Process.Kill()
	killed.Wait()
	w.Close()
	// A kill in the middle of a line leaves a part of it.
	f, _ := os.OpenFile(shard0, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"schema":"webcap.audit-file/1","input":"` + archive + `/d0`)
	f.Close()
	before := lines(t, shard0)
	os.Remove(fifo)
	writeFile(t, fifo, good)

	for i := range n {
		runPod(i) // pod 0 retried: it resumes
	}
	mergeJob := readJob(t, "../../docs/k8s/merge-job.yaml").Spec.Template.Spec.Containers[0].Command
	mergeCmd := exec.Command(mergeJob[0], mergeJob[1], strings.ReplaceAll(mergeJob[2], "/results", results))
	mergeCmd.Env = append(os.Environ(), "PATH="+filepath.Dir(webcap)+":"+os.Getenv("PATH"))
	if out, err := mergeCmd.CombinedOutput(); err != nil {
		t.Fatalf("the merge Job: %v\n%s", err, out)
	}
	merged := lines(t, filepath.Join(results, "all.jsonl"))
	slices.Sort(merged)

	one, err := exec.Command(webcap, "audit", "--recursive", "--jsonl", "--progress", "none", archive).Output()
	if code := exitOf(err); code != 4 {
		t.Fatalf("one run: exit %d, want 4 (the hostile files): %v", code, err)
	}
	want := strings.Split(strings.TrimSuffix(string(one), "\n"), "\n")
	slices.Sort(want)
	t.Logf("%d files; %d shards; pod 0 killed after %d lines (a cut-short one dropped)", len(want), n, len(before)-1)
	if len(before) < 2 || len(before) > len(want)/n+20 {
		t.Errorf("pod 0 held %d lines when killed: not mid-way", len(before))
	}
	if !slices.Equal(merged, want) {
		t.Errorf("the merged shards (%d lines) differ from one run (%d lines)", len(merged), len(want))
	}
}

// The manifest's fields that make it an Indexed Job whose pods take their
// shard by their index; the test above runs its command.
func TestK8sJobManifest(t *testing.T) {
	job := readJob(t, "../../docs/k8s/audit-job.yaml")
	s := job.Spec
	cmd := strings.Join(s.Template.Spec.Containers[0].Command, " ")
	switch {
	case job.Kind != "Job" || job.APIVersion != "batch/v1":
		t.Errorf("kind %s %s, want batch/v1 Job", job.APIVersion, job.Kind)
	case s.CompletionMode != "Indexed":
		t.Errorf("completionMode %q, want Indexed", s.CompletionMode)
	case s.Completions < 2:
		t.Errorf("completions %d", s.Completions)
	case !strings.Contains(cmd, fmt.Sprintf(`--shard "$JOB_COMPLETION_INDEX/%d"`, s.Completions)):
		t.Errorf("the command does not take shard $JOB_COMPLETION_INDEX/%d (completions): %s", s.Completions, cmd)
	case !strings.Contains(cmd, `--resume "/results/shard-$JOB_COMPLETION_INDEX.jsonl"`):
		t.Errorf("the command does not resume its shard's results: %s", cmd)
	case s.Template.Spec.RestartPolicy != "Never":
		t.Errorf("restartPolicy %q, want Never (podFailurePolicy needs it)", s.Template.Spec.RestartPolicy)
	}
	merge := readJob(t, "../../docs/k8s/merge-job.yaml")
	if m := strings.Join(merge.Spec.Template.Spec.Containers[0].Command, " "); !strings.Contains(m, "/results/shard-*.jsonl") {
		t.Errorf("the merge Job does not read the shards: %s", m)
	}
}

type k8sJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Spec       struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Template       struct {
			Spec struct {
				RestartPolicy string `yaml:"restartPolicy"`
				Containers    []struct {
					Command []string `yaml:"command"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func readJob(t *testing.T, path string) k8sJob {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j k8sJob
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(false)
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(j.Spec.Template.Spec.Containers) != 1 || len(j.Spec.Template.Spec.Containers[0].Command) != 3 {
		t.Fatalf("%s: want one container whose command is sh -c SCRIPT", path)
	}
	return j
}

// shardOf is --shard's function as docs/scale.md documents it.
func shardOf(path string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(filepath.Clean(path)))
	return int(h.Sum64() % uint64(n))
}

// webcapBinary is this test binary under the name webcap, which runs the
// CLI (TestMain).
func webcapBinary(t *testing.T, dir string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "bin", "webcap")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.Symlink(exe, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func exitOf(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
