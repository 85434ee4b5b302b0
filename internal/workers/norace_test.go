//go:build !race

package workers

const raceEnabled = false
