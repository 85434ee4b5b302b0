module github.com/webcap/webcap

go 1.26.0

require (
	github.com/rogpeppe/go-internal v1.16.0
	github.com/spf13/cobra v1.10.2
	golang.org/x/net v0.62.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/pdfcpu/pdfcpu v0.15.0 // indirect
	github.com/spf13/pflag v1.0.10 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/tools v0.51.0 // indirect
)
