package jsrun

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"modernc.org/quickjs"

	"docsd/internal/fetch"
)

func (inv *invocation) timeLimit() error {
	return &InvokeError{Kind: ErrTimeLimit, Message: fmt.Sprintf("the script ran past its time limit of %s", inv.limits.Time)}
}

// classifyErr names the limit behind an error of the engine, or reports the script's exception.
func (inv *invocation) classifyErr(err error) error {
	var qe *quickjs.Error
	if errors.As(err, &qe) {
		return inv.classify(qe.Name, qe.Message, err.Error())
	}
	return inv.classify("", "", err.Error())
}

// classify tells the engine's own InternalErrors for its limits (matched by name and exact
// message, so a script's error that merely mentions "interrupted" stays the script's) from
// the script's exceptions, reported as text.
func (inv *invocation) classify(name, message, text string) error {
	if name == "InternalError" {
		switch message {
		case "interrupted":
			if inv.ctx.Err() != nil {
				return &InvokeError{Kind: ErrTimeLimit, Message: "the invocation was cancelled: " + inv.ctx.Err().Error()}
			}
			return inv.timeLimit()
		case "out of memory":
			return &InvokeError{Kind: ErrMemoryLimit, Message: fmt.Sprintf("the script ran past its memory limit of %s", fetch.ByteSize(int64(inv.limits.Memory)))}
		case "stack overflow":
			return &InvokeError{Kind: ErrStackLimit, Message: "the script ran past its stack limit (too deep a recursion)"}
		}
	}
	return &InvokeError{Kind: ErrThrown, Message: text}
}

// response decodes what __docsd_result left: the response, or the error the handler threw.
func (inv *invocation) response(out string) (*Response, error) {
	var res struct {
		Error *struct {
			Name    string `json:"name"`
			Message string `json:"message"`
			Stack   string `json:"stack"`
		} `json:"error"`
		Status  int         `json:"status"`
		Headers [][2]string `json:"headers"`
		Body    string      `json:"body"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return nil, fmt.Errorf("jsrun: the result does not decode: %w", err)
	}
	if res.Error != nil {
		msg := res.Error.Name + ": " + res.Error.Message
		if res.Error.Name == "ResponseLimit" {
			return nil, &InvokeError{Kind: ErrResponseLimit, Message: res.Error.Message}
		}
		if e := inv.classify(res.Error.Name, res.Error.Message, msg); !errors.Is(e, ErrThrown) {
			return nil, e
		}
		if res.Error.Stack != "" {
			msg += "\n" + strings.TrimRight(res.Error.Stack, "\n")
		}
		return nil, &InvokeError{Kind: ErrThrown, Message: msg}
	}
	body, err := fromBinary(res.Body)
	if err != nil {
		return nil, err
	}
	if len(body) > inv.limits.ResponseBytes {
		return nil, &InvokeError{Kind: ErrResponseLimit, Message: fmt.Sprintf("the response is larger than the limit of %s", fetch.ByteSize(int64(inv.limits.ResponseBytes)))}
	}
	h := http.Header{}
	for _, kv := range res.Headers {
		h.Add(kv[0], kv[1])
	}
	return &Response{Status: res.Status, Headers: h, Body: body}, nil
}
