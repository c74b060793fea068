package org

// AgentTx stores what belongs to this resource group.
type AgentTx interface{}
