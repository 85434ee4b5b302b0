package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/pdfio"
)

// capture --warc, append --warc: the web archive written beside the PDF.

// checkWARCOut checks --warc's file before any work starts, by the -o
// rules (checkOutput); that it is neither an input nor the PDF written,
// runFiles.check says. --warc-keep-credentials (keep) needs --warc.
func checkWARCOut(cmd, path string, force, keep bool) error {
	switch {
	case path == "" && keep:
		return usagef("%s: --warc-keep-credentials is about the WARC: give --warc OUT.warc.gz", cmd)
	case path == "":
		return nil
	case path == stdoutName:
		return usagef("%s: --warc -: give the WARC a file name (stdout is the PDF's)", cmd)
	}
	return checkOutput(cmd, "--warc", path, force)
}

// warcKeepCredentialsUsage is --warc-keep-credentials' help line, the
// same for capture, append and refresh.
const warcKeepCredentialsUsage = "write the requests' Cookie, Authorization and Proxy-Authorization, the responses' Set-Cookie and URLs' user:password@ to the --warc file as sent (default: redacted)"

// writeWARC writes the WARC of pages and pdf to path (gzip members when it ends in
// .gz), atomically, as the PDF is written.
func writeWARC(cmd, path string, force bool, pages []*capture.Page, pdf []byte, info capture.WARCInfo) error {
	if path == "" {
		return nil
	}
	var buf bytes.Buffer
	if err := capture.WriteWARC(&buf, strings.HasSuffix(strings.ToLower(path), ".gz"), pages, pdf, info); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	if err := pdfio.WriteFile(path, buf.Bytes(), pdfio.WriteOptions{Replace: force}); err != nil {
		return &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	return nil
}

// warcInfo is what the warcinfo record of the WARC written to path by
// command cmd says: the software, and the command with its FILE (base
// name) and start URLs (no flag values: --post data and passwords stay
// out of the archive; WriteWARC leaves user information out of the URLs
// and redacts the requests' credentials unless keep, which is
// --warc-keep-credentials).
func warcInfo(path, cmd, file string, urls []string, keep bool) capture.WARCInfo {
	var args []string
	if file != "" {
		args = append(args, filepath.Base(file))
	}
	return capture.WARCInfo{Filename: filepath.Base(path), Software: "webcap/" + buildVersion().Version,
		Command: "webcap " + cmd, Args: append(args, urls...), KeepCredentials: keep}
}
