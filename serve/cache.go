package serve

import (
	"container/list"
	"encoding/json"
	"sync"
)

// resultCache keeps recent answers of read-only tools keyed by the index
// version they were answered from, so a planner asking again is answered
// at once (and says so: a cache hit).
type resultCache struct {
	mu    sync.Mutex
	max   int
	order *list.List
	byKey map[string]*list.Element
}

type cacheEntry struct {
	key string
	val json.RawMessage
}

func newResultCache(max int) *resultCache {
	return &resultCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *resultCache) get(key string) (json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*cacheEntry).val, true
	}
	return nil, false
}

func (c *resultCache) put(key string, val json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		e.Value.(*cacheEntry).val = val
		c.order.MoveToFront(e)
		return
	}
	c.byKey[key] = c.order.PushFront(&cacheEntry{key, val})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*cacheEntry).key)
	}
}
