package org

// SAMLTx stores what belongs to this resource group.
type SAMLTx interface{}
