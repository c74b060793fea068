package main

import (
	"context"
	"fmt"
	"io"

	"docsd/internal/app"
	"docsd/internal/auth"
	"docsd/internal/config"
	"docsd/internal/contenttree"
)

// seedMembers adds n users to the organization, with a spread of roles, through docsd's own
// services on its data directory (SQLite in WAL mode takes this second process's writes while
// docsd runs) or its PostgreSQL database. The admin commands have no way to add a member yet.
func seedMembers(ctx context.Context, dataDir, databaseURL, orgID string, n int) error {
	noEnv := func(string) string { return "" }
	args := []string{"-data-dir", dataDir}
	if databaseURL != "" {
		args = append(args, "-database-url", databaseURL)
	}
	cfg, err := config.Load("docsd-bench seed", args, noEnv, io.Discard)
	if err != nil {
		return err
	}
	a, err := app.Open(ctx, cfg, app.Options{})
	if err != nil {
		return err
	}
	defer a.Close()
	roles := []auth.Role{auth.Read, auth.Edit, auth.Comment, auth.Review, auth.Create, auth.Admin, auth.Guest}
	for i := 1; i <= n; i++ {
		u, err := a.Accounts.CreateUser(ctx, fmt.Sprintf("member%04d@bench.localhost", i), fmt.Sprintf("Bench Member %d", i), true)
		if err != nil {
			return fmt.Errorf("seed members: %w", err)
		}
		if err := a.Orgs.AddMember(ctx, orgID, u.ID, roles[i%len(roles)]); err != nil {
			return fmt.Errorf("seed members: %w", err)
		}
	}
	return nil
}

// seedContent makes content the pages of a space, as its creator, through docsd's content
// service on its data directory or database (as seedMembers does): the API's imports run as
// jobs, which a benchmark would have to wait for.
func seedContent(ctx context.Context, dataDir, databaseURL, userID, spaceID string, tree *contenttree.Tree) error {
	noEnv := func(string) string { return "" }
	args := []string{"-data-dir", dataDir}
	if databaseURL != "" {
		args = append(args, "-database-url", databaseURL)
	}
	cfg, err := config.Load("docsd-bench seed", args, noEnv, io.Discard)
	if err != nil {
		return err
	}
	a, err := app.Open(ctx, cfg, app.Options{})
	if err != nil {
		return err
	}
	defer a.Close()
	if _, _, err := a.Content.Replace(ctx, auth.Caller{UserID: userID}, spaceID, tree); err != nil {
		return fmt.Errorf("seed content: %w", err)
	}
	return nil
}

// benchPages is the size of the seeded space: a published page's navigation lists them all.
const benchPages = 500

// benchTree is a space of benchPages documents in groups of 50 under top-level pages, each a
// few paragraphs with the blocks pages commonly hold (headings, a list, a table, code, links).
func benchTree() (*contenttree.Tree, error) {
	t := contenttree.New()
	last := map[string]string{}
	for i := range benchPages {
		parent := ""
		if i%50 != 0 {
			parent = fmt.Sprintf("p%04d", i-i%50)
		}
		order, err := contenttree.OrderBetween(last[parent], "")
		if err != nil {
			return nil, err
		}
		last[parent] = order
		id := fmt.Sprintf("p%04d", i)
		t.Pages[id] = contenttree.Page{ID: id, ParentID: parent, Order: order, Kind: contenttree.KindDocument,
			Title: fmt.Sprintf("Page %d", i), Slug: "page-" + id, Markdown: benchMarkdown(i)}
	}
	return t, nil
}

func benchMarkdown(i int) string {
	return fmt.Sprintf(`# Page %[1]d

This page explains **feature %[1]d** of the product, with a [link to the next page](page-p%04[2]d.md) and one [outside](https://example.com/docs/%[1]d).

## Install

1. Download the package for your platform.
2. Run the installer and follow its steps.
3. Check the version with `+"`tool --version`"+`.

`+"```sh\ntool install feature-%[1]d --yes\ntool status\n```"+`

## Options

| Option | Default | Meaning |
| ------ | ------- | ------- |
| `+"`level`"+` | 3 | How much detail the tool prints |
| `+"`retry`"+` | on | Whether a failed step is tried again |

{%% hint style="info" %%}
Settings made here apply to every project of the organization.
{%% endhint %%}

## Troubleshooting

When the tool stops with an error, read its log first: most problems are named there, with the
step that failed and what to change. A step that times out can be given more time.
`, i, (i+1)%benchPages)
}
