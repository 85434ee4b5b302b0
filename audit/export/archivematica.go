package export

import (
	"encoding/json"
	"io"
)

// The stdout of an Archivematica FPR validation command
// (archivematica-fpr-validation-contract.md; validate_file.py reads it with
// ast.literal_eval, policy_check.py with json.loads): an object of strings
// only, never true, false or null, so that it is both JSON and a Python
// literal. Archivematica writes eventOutcomeInformation as the PREMIS
// event's eventOutcome, and eventOutcomeDetailNote as its note.

type fprOutput struct {
	Outcome string `json:"eventOutcomeInformation"` // pass, partial pass, fail
	Note    string `json:"eventOutcomeDetailNote"`
}

// writeArchivematica writes one object per result, each on its own line:
// Archivematica runs the command on one file, and reads one object.
func writeArchivematica(w io.Writer, results Results) error {
	for i := range results.Len() {
		r := fileAt(results, i)
		b, err := json.Marshal(fprOutput{Outcome: Outcome(r.status), Note: detailNote(r)})
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}
