package cli

import (
	"context"
	"encoding/json"
	"github.com/webcap/webcap/internal/pdfbuild"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// webcap build, then webcap info --json: the report holds exactly what the
// example manifest says, and nothing else.
func TestBuildThenInfoJSON(t *testing.T) {
	manifest := filepath.Join("..", "..", "testdata", "build", "manifest.json")
	out := filepath.Join(t.TempDir(), "out.pdf")
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"build", manifest, "-o", out}, ios); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, stdout, stderr)
	}
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"info", "--json", out}, ios); code != 0 {
		t.Fatalf("info: exit %d\n%s", code, stderr)
	}
	checkSchema(t, stdout.Bytes())
	var info struct {
		SpiderInfo struct {
			Version  string `json:"version"`
			Commands []struct {
				URL    string   `json:"url"`
				Levels int      `json:"levels"`
				Flags  []string `json:"flags"`
				Method string   `json:"method"`
			} `json:"commands"`
		} `json:"spiderInfo"`
		ContentSets []struct {
			Subtype  string   `json:"subtype"`
			URLSKeys []string `json:"urlsKeys"`
			Sources  []struct {
				URL     string     `json:"url"`
				Chains  [][]string `json:"chains"`
				Updated struct {
					Time string `json:"time"`
				} `json:"updated"`
				Submission string `json:"submission"`
				Command    string `json:"command"`
			} `json:"sources"`
			ContentType string `json:"contentType"`
			Title       string `json:"title"`
			Pages       []int  `json:"pages"`
		} `json:"contentSets"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &info); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	var m struct {
		Commands []struct {
			URL      string `json:"url"`
			Levels   int    `json:"levels"`
			SameSite bool   `json:"sameSite"`
		} `json:"commands"`
		PageSets []struct {
			Pages, URL, ContentType, Captured, Title string
			Redirects                                [][]string
		} `json:"pageSets"`
		ImageSets []struct {
			URL, Captured string
		} `json:"imageSets"`
	}
	data, _ := os.ReadFile(manifest)
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(info.SpiderInfo.Commands) != len(m.Commands) {
		t.Fatalf("%d commands, manifest %d", len(info.SpiderInfo.Commands), len(m.Commands))
	}
	for i, c := range m.Commands {
		got := info.SpiderInfo.Commands[i]
		if got.URL != c.URL || got.Levels != c.Levels || c.SameSite != reflect.DeepEqual(got.Flags, []string{"SameSite"}) || got.Method != "GET" {
			t.Errorf("command %d: %+v, manifest %+v", i, got, c)
		}
	}
	type set struct {
		kind, url, ct, time, title string
		chains                     [][]string
	}
	var got, want []set
	for _, cs := range info.ContentSets {
		si := cs.Sources[0]
		// Every URL that led to the source finds the set: its own, and
		// each one that redirected to it.
		keys := []string{si.URL}
		for _, c := range si.Chains {
			for _, u := range c {
				if !slices.Contains(keys, u) {
					keys = append(keys, u)
				}
			}
		}
		if !slices.Equal(slices.Sorted(slices.Values(cs.URLSKeys)), slices.Sorted(slices.Values(keys))) {
			t.Errorf("%s: URLS keys %v, want %v", si.URL, cs.URLSKeys, keys)
		}
		got = append(got, set{cs.Subtype, si.URL, cs.ContentType, si.Updated.Time, cs.Title, si.Chains})
	}
	for _, p := range m.PageSets {
		var chains [][]string
		for _, c := range p.Redirects {
			chains = append(chains, append(c, p.URL))
		}
		want = append(want, set{"SPS", p.URL, p.ContentType, p.Captured, p.Title, chains})
	}
	for _, s := range m.ImageSets {
		want = append(want, set{"SIS", s.URL, "", s.Captured, "", nil})
	}
	less := func(s []set) func(i, j int) bool { return func(i, j int) bool { return s[i].url < s[j].url } }
	sort.Slice(got, less(got))
	sort.Slice(want, less(want))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("info --json:\n%+v\nmanifest:\n%+v", got, want)
	}
}

// A certified input: build refuses to update it, naming the permission,
// unless --force.
func TestBuildCertified(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.pdf"), pdfbuild.Certified(1), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("Notes.\n"), 0o644)
	manifest := filepath.Join(dir, "m.json")
	os.WriteFile(manifest, []byte(`{"input": "in.pdf", "pageSets": [{"pages": "1", "url": "http://a.example/notes.txt", "source": "notes.txt"}]}`), 0o644)
	out := filepath.Join(dir, "out.pdf")
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"build", manifest, "-o", out}, ios); code != exitFailed ||
		!strings.Contains(stderr.String(), "certified") || !strings.Contains(stderr.String(), "DocMDP /P 1: no changes") || !strings.Contains(stderr.String(), "--force writes the update anyway") {
		t.Errorf("build of a certified file: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("written anyway")
	}
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"build", "--force", manifest, "-o", out}, ios); code != 0 {
		t.Errorf("build --force: exit %d\n%s%s", code, stdout, stderr)
	}
}
