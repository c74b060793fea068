package jobs

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"docsd/internal/store"
)

// Each process records itself in job_owners and beats its row every OwnerBeat. Another
// process takes over the running jobs of an owner that has not beaten for OwnerTimeout, or,
// when both run on the same machine, of an owner whose process no longer exists: a docsd
// killed and restarted resumes its jobs at once, rather than when their leases run out.

// self describes this process for job_owners.
func self(owner string, started time.Time) store.JobOwner {
	pid := os.Getpid()
	return store.JobOwner{Owner: owner, Machine: machine(), PID: pid, PIDStart: processStart(pid), StartedAt: started}
}

// machine names the kernel boot and pid namespace this process runs in, so that pids are
// compared only between processes that see the same ones. "" when it cannot be told (not
// Linux), and then only the beat decides.
func machine() string {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(boot)) + "/" + ns
}

// processStart is the start time of process pid in clock ticks since boot (field 22 of
// /proc/pid/stat), or 0 when there is no such process or it cannot be read.
func processStart(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) is in parentheses and may hold spaces: fields count from
	// after its closing parenthesis, which is field 3.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 20 {
		return 0
	}
	n, _ := strconv.ParseInt(fields[19], 10, 64)
	return n
}

// processGone reports whether o runs on this machine and its process is no longer there
// (or its pid now names another process).
func processGone(me, o store.JobOwner) bool {
	if me.Machine == "" || o.Machine != me.Machine || o.PID <= 0 {
		return false
	}
	return processStart(o.PID) != o.PIDStart
}

// tendOwners beats this process's row and takes over the jobs of owners that are gone, at
// most once per OwnerBeat of the queue's clock (and at once on the first call).
func (q *Queue) tendOwners(ctx context.Context) error {
	now := q.clock.Now()
	q.mu.Lock()
	due := q.lastBeat.IsZero() || now.Sub(q.lastBeat) >= q.opts.OwnerBeat
	if due {
		q.lastBeat = now
	}
	q.mu.Unlock()
	if !due {
		return nil
	}
	if err := q.db.BeatJobOwner(ctx, now, q.self); err != nil {
		return err
	}
	owners, err := q.db.JobOwners(ctx)
	if err != nil {
		return fmt.Errorf("list job owners: %w", err)
	}
	staleBefore := now.Add(-q.opts.OwnerTimeout)
	dead := map[string]time.Time{}
	stale := false
	for _, o := range owners {
		if o.Owner == q.self.Owner {
			continue
		}
		if o.BeatAt.Before(staleBefore) {
			stale = true
		} else if processGone(q.self, o) {
			dead[o.Owner] = o.BeatAt
		}
	}
	if !stale && len(dead) == 0 {
		return nil
	}
	gone, released, err := q.db.TakeOverJobs(ctx, now, staleBefore, dead)
	if err != nil {
		return err
	}
	if len(gone) > 0 {
		q.log.Info("took over the jobs of processes that are gone", "owners", gone, "jobs", released)
	}
	return nil
}
