package query

import (
	"strings"
	"testing"
)

func TestWithoutEnvironment(t *testing.T) {
	report := strings.Join([]string{
		"str() on the pytest.raises context variable",
		"Pytest 4.6.2, macOS 10.14.5",
		"Package            Version  Location",
		"------------------ -------- --------------",
		"apipkg             1.5",
		"attrs              19.1.0",
		"py                 1.8.0    /home/u/src/py",
		"requests-mock",
		"nox > pip install pytest>=5.3",
		"attrs==19.3.0",
		"importlib-metadata==1.3.0",
		"zipp==0.6.0",
		"Installing collected packages: zipp, six, PyYAML",
		"Successfully installed GitPython-3.1.31 Markdown-3.3.7",
		"The message is cut at the first line: pytest 6.2.2 prints it whole.",
	}, "\n")
	got := withoutEnvironment(report)
	for _, gone := range []string{"apipkg", "Package", "Location", "attrs", "importlib", "zipp", "PyYAML", "GitPython"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q is left:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"pytest.raises", "Pytest 4.6.2, macOS", "requests-mock", "pip install pytest", "pytest 6.2.2 prints"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q is gone:\n%s", kept, got)
		}
	}
	// two package lines are a report's versions, not a listing
	two := "fails since the upgrade\nflask 2.3.0\nwerkzeug 2.3.1\n"
	if got := withoutEnvironment(two); got != two {
		t.Errorf("two versions dropped: %q", got)
	}
}
