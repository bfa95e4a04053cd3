package main

import (
	"fmt"
	"io"

	"vimpclient/clientcore"
	"vimpclient/internal/localfile"
)

// runFrames decodes raw frame files (wire bytes starting with the port byte)
// against a schema and prints one JSON object per file, one per line.
func runFrames(args []string, stdout, stderr io.Writer) int {
	fs := flagSet("frames", stderr)
	schemaPath := fs.String("schema", "", "snapshot schema: CONFIG_DATA.snapshot or {\"version\",\"port\",\"keys\"} (required)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vimpclient frames -schema SCHEMA.json FILE...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if *schemaPath == "" || fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	raw, err := localfile.Read(*schemaPath, localfile.SchemaLimit, "snapshot schema")
	if err != nil {
		fmt.Fprintf(stderr, "frames: %v\n", err)
		return 1
	}
	schema, err := clientcore.ParseSchema(raw)
	if err != nil {
		fmt.Fprintf(stderr, "frames: %s: %v\n", *schemaPath, err)
		return 1
	}
	dec := clientcore.NewDecoder(schema)
	var f clientcore.Frame
	var line []byte
	status := 0
	for _, path := range fs.Args() {
		b, err := localfile.Read(path, localfile.FrameLimit, "frame")
		if err != nil {
			fmt.Fprintf(stderr, "frames: %v\n", err)
			status = 1
			continue
		}
		line = clientcore.AppendReport(line[:0], dec, &f, path, b)
		line = append(line, '\n')
		if _, err := stdout.Write(line); err != nil {
			fmt.Fprintf(stderr, "frames: %v\n", err)
			return 1
		}
	}
	return status
}
