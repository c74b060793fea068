package access

// PublishedSite is a published site that includes a space, as the space's published
// addresses are chosen among them.
type PublishedSite struct {
	ID         string
	Visibility string
}

// SpaceAddresses says which of a space's published sites give its addresses: Published is
// the index of the site whose address is the space's urls.published, Keyed whether that
// address carries the caller's share key, and Public the index of the site whose address is
// urls.public (-1 when no site including the space is public).
type SpaceAddresses struct {
	Published int
	Keyed     bool
	Public    int
}

// ChooseSpaceAddresses decides, for one caller, which of the published sites that include a
// space (sites, in the order the sites service ranks them: non-empty) give the space's
// addresses. Anyone is shown the first site's address, except a share-link reader of one of
// them, who is shown that site's address with the key, which is what lets them in (keyActive
// reports whether the caller's share key is an active link of a site; nil when the caller
// gave none). urls.public is only ever a public site's address: it must open for anyone.
func ChooseSpaceAddresses(sites []PublishedSite, keyActive func(siteID string) (bool, error)) (SpaceAddresses, error) {
	out := SpaceAddresses{Public: -1}
	if keyActive != nil {
		for i, st := range sites {
			active, err := keyActive(st.ID)
			if err != nil {
				return out, err
			}
			if active {
				out.Published, out.Keyed = i, true
				break
			}
		}
	}
	for i, st := range sites {
		if st.Visibility == SitePublic {
			out.Public = i
			break
		}
	}
	return out, nil
}
