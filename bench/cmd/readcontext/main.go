// Command readcontext runs pdfcpu's api.ReadContext alone on a file: the
// baseline that "webcap info --json" is measured against (time and peak
// memory): readcontext big.pdf. With -validate it also runs pdfcpu's
// validation (api.ValidateContext, relaxed mode), what "pdfcpu validate"
// does: the peer of "webcap audit".
package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

func main() {
	log.SetFlags(0)
	validate := flag.Bool("validate", false, "validate the file too (pdfcpu validate, relaxed)")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: readcontext [-validate] FILE.pdf")
	}
	api.DisableConfigDir()
	f, err := os.Open(flag.Arg(0))
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
	if *validate {
		if err := api.ValidateContext(ctx); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(len(ctx.XRefTable.Table), "objects")
}
