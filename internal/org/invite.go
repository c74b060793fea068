package org

// InviteTx stores what belongs to this resource group.
type InviteTx interface{}
