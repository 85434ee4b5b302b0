// Command readcontext runs pdfcpu's api.ReadContext alone on a file: the
// baseline that "webcap info --json" is measured against (time and peak
// memory): readcontext big.pdf.
package main

import (
	"fmt"
	"log"
	"os"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

func main() {
	api.DisableConfigDir()
	f, err := os.Open(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := api.ReadContext(f, conf)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(ctx.XRefTable.Table), "objects")
}
