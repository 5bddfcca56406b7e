package main

import (
	"image/color"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestRenderProfileKeepsThePaletteOrDropsColour(t *testing.T) {
	for i := range 16 {
		c := ansi.BasicColor(i)
		if got := renderProfile(true).Convert(c); got != color.Color(c) {
			t.Errorf("want palette colour %d unchanged with colour on, got %v", i, got)
		}
		if got := renderProfile(false).Convert(c); got != nil {
			t.Errorf("want palette colour %d dropped with colour off, got %v", i, got)
		}
	}
}
