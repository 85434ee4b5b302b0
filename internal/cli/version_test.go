package cli

import (
	"encoding/json"
	"reflect"
	"runtime/debug"
	"testing"
)

// The version from the build information, for each way webcap is built.
func TestVersionOf(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	const rev = "b9b0964a1c0e2f3d4b5a69788796a5b4c3d2e1f0"
	cases := []struct {
		name   string
		bi     *debug.BuildInfo
		linked string
		want   string
		json   string
	}{
		{
			name: "go install @version",
			bi:   &debug.BuildInfo{Main: debug.Module{Path: "github.com/webcap/webcap", Version: "v1.2.3"}},
			want: "webcap v1.2.3, go1.26.0",
			json: `{"version":"v1.2.3","go":"go1.26.0"}`,
		},
		{
			name: "go build in a clean checkout",
			bi: &debug.BuildInfo{
				Main:     debug.Module{Path: "github.com/webcap/webcap", Version: "v0.0.0-20261125165800-b9b0964a1c0e"},
				Settings: vcs("-buildmode", "exe", "vcs", "git", "vcs.revision", rev, "vcs.time", "2026-11-25T16:58:00Z", "vcs.modified", "false"),
			},
			want: "webcap v0.0.0-20261125165800-b9b0964a1c0e, revision " + rev + " (2026-11-25T16:58:00Z), go1.26.0",
			json: `{"version":"v0.0.0-20261125165800-b9b0964a1c0e","revision":"` + rev + `","time":"2026-11-25T16:58:00Z","go":"go1.26.0"}`,
		},
		{
			name: "go build in a modified checkout",
			bi: &debug.BuildInfo{
				Main:     debug.Module{Path: "github.com/webcap/webcap", Version: "v0.0.0-20261125165800-b9b0964a1c0e+dirty"},
				Settings: vcs("vcs.revision", rev, "vcs.time", "2026-11-25T16:58:00Z", "vcs.modified", "true"),
			},
			want: "webcap v0.0.0-20261125165800-b9b0964a1c0e+dirty, revision " + rev + " (2026-11-25T16:58:00Z, modified), go1.26.0",
			json: `{"version":"v0.0.0-20261125165800-b9b0964a1c0e+dirty","revision":"` + rev + `","time":"2026-11-25T16:58:00Z","modified":true,"go":"go1.26.0"}`,
		},
		{
			name: "devel, revision only",
			bi:   &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev)},
			want: "webcap (devel), revision " + rev + ", go1.26.0",
			json: `{"version":"(devel)","revision":"` + rev + `","go":"go1.26.0"}`,
		},
		{
			name: "no build information",
			want: "webcap (devel), go1.26.0",
			json: `{"version":"(devel)","go":"go1.26.0"}`,
		},
		{
			name:   "set at link time",
			bi:     &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			linked: "v9.9.9",
			want:   "webcap v9.9.9, go1.26.0",
			json:   `{"version":"v9.9.9","go":"go1.26.0"}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := versionOf(tc.bi, tc.linked, "go1.26.0")
			if got := v.String(); got != tc.want {
				t.Errorf("versionOf(...).String() = %q, want %q", got, tc.want)
			}
			j, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			// Fields as tc.json has them; "schema" is every document's.
			var got, want map[string]any
			if err := json.Unmarshal(j, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.json), &want); err != nil {
				t.Fatal(err)
			}
			delete(got, "schema")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("JSON = %s, want %s", j, tc.json)
			}
		})
	}
}
