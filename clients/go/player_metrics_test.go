package agenticdriver_test

// The metric steps of contract scenarios (player_test.go): the Prometheus text of the hosts'
// /metrics, summed by name and labels.

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

var (
	samplePattern = regexp.MustCompile(`^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)`)
	labelPattern  = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"`)
)

// metricValue sums the samples called name whose labels include labels.
func metricValue(text, name string, labels object) float64 {
	total := 0.0
	for _, line := range strings.Split(text, "\n") {
		sample := samplePattern.FindStringSubmatch(line)
		if strings.HasPrefix(line, "#") || sample == nil || sample[1] != name {
			continue
		}
		found := map[string]string{}
		for _, label := range labelPattern.FindAllStringSubmatch(sample[2], -1) {
			found[label[1]] = label[2]
		}
		all := true
		for key, value := range labels {
			all = all && found[key] == fmt.Sprint(value)
		}
		if value, err := strconv.ParseFloat(sample[3], 64); all && err == nil {
			total += value
		}
	}
	return total
}

// metricsText is the /metrics of every host the scenario talks to, one after the other.
func metricsText(ctx *playContext) (string, error) {
	urls := ctx.metricsURLs
	if len(urls) == 0 {
		urls = []string{ctx.baseURL}
	}
	client := http.Client{Timeout: requestTimeout}
	var all strings.Builder
	for _, url := range urls {
		response, err := client.Get(url + "/metrics")
		if err != nil {
			return "", err
		}
		text, err := io.ReadAll(response.Body)
		_ = response.Body.Close()
		if err != nil {
			return "", err
		}
		all.Write(text)
		all.WriteString("\n")
	}
	return all.String(), nil
}

func metric(ctx *playContext, step object) error {
	text, err := metricsText(ctx)
	if err != nil {
		return err
	}
	name := fmt.Sprint(step["metric"])
	labels, _ := step["labels"].(object)
	value := metricValue(text, name, labels)
	if expect, ok := step["expect"].(object); ok {
		since, err := resolve(expect["since"], ctx.variables)
		if err != nil {
			return err
		}
		sinceValue, _ := since.(float64)
		if increase, _ := expect["increase"].(float64); value-sinceValue != increase {
			return failf("%s%v grew by %g, expected %g", name, labels, value-sinceValue, increase)
		}
	}
	if name, ok := step["capture"].(string); ok {
		ctx.variables[name] = value
	}
	return nil
}
