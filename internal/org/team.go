package org

// TeamTx stores what belongs to this resource group.
type TeamTx interface{}
