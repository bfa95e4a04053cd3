package assets

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif"  // hosts serve PNG; other common formats are decoded too
	_ "image/jpeg" // (a part that gets none draws its fallback)
	_ "image/png"
)

// checkImage reads an image's header and refuses dimensions over the
// limits, before any pixel is decoded: a few bytes can claim a picture of
// gigabytes.
// It returns the image's pixel count.
func checkImage(file string, b []byte, lim Limits) (int64, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return 0, fmt.Errorf("%s: image header: %w", file, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, fmt.Errorf("%s: image of %d×%d px", file, cfg.Width, cfg.Height)
	}
	if side := max(cfg.Width, cfg.Height); side > lim.ImageSide {
		return 0, &LimitError{File: file, Kind: Image, What: "px a side", Got: int64(side), Limit: int64(lim.ImageSide)}
	}
	px := int64(cfg.Width) * int64(cfg.Height)
	if px > lim.ImagePixels {
		return 0, &LimitError{File: file, Kind: Image, What: "pixels", Got: px, Limit: lim.ImagePixels}
	}
	return px, nil
}

// decodeImage checks the header, then has reserve take the pixels from the
// budget of all images (nil: none), then decodes them.
func decodeImage(file string, b []byte, lim Limits, reserve func(px int64) error) (image.Image, error) {
	px, err := checkImage(file, b, lim)
	if err != nil {
		return nil, err
	}
	if reserve != nil {
		if err := reserve(px); err != nil {
			return nil, err
		}
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: image: %w", file, err)
	}
	return img, nil
}
