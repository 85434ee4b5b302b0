package cli

// --ordered, audit's and capture --urls-from's, in one rule: it is the
// order of the JSON lines the command prints (batch.Run's order: the
// inputs' or the list's), so it needs them.

// checkOrdered is a usage error when --ordered is given and the command
// prints no JSON lines (lines: --jsonl, or audit's --resume, whose file
// gets them): it would order nothing.
func checkOrdered(cmd string, ordered, lines bool) error {
	if ordered && !lines {
		return usagef("%s: --ordered is the order of --jsonl's lines: give --jsonl", cmd)
	}
	return nil
}
