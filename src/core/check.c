/* SPDX-License-Identifier: MIT */
/* check.c - steer_world_check_state(): the invariants of a world, checked from the outside of the
 * step. Tests and the fuzz harnesses run it after every call and every step; the core never calls
 * it. It reads everything, so it costs O(vehicles + shapes + cells). */
#include <stdio.h>

#include "fields.h"

typedef struct Check {
    char *why;
    size_t size;
    bool ok;
} Check;

static bool failf(Check *c, const char *format, ...) STEER_PRINTF_FORMAT(2, 3);
static bool failf(Check *c, const char *format, ...)
{
    if (c->ok && c->why && c->size > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(c->why, c->size, format, args);
        va_end(args);
    }
    c->ok = false;
    return false;
}

static bool within(double x, double lo, double hi) { return isfinite(x) && x >= lo && x <= hi; }

static bool point_ok(SteerVec2 p, double limit) { return within(p.x, -limit, limit) && within(p.y, -limit, limit); }

#define REQUIRE(cond, ...)                                                                                             \
    do {                                                                                                               \
        if (!(cond)) return failf(c, __VA_ARGS__);                                                                     \
    } while (0)

/// A pool's free list visits exactly its dead slots, once each.
static bool check_pool(Check *c, const SteerPool *pool, const char *name)
{
    REQUIRE(pool->count >= 0 && pool->count <= pool->capacity, "%s pool: count %d, capacity %d", name, pool->count,
            pool->capacity);
    int alive = 0;
    for (int i = 0; i < pool->count; i++) alive += ((const SteerPoolHeader *)steer_pool_at(pool, i))->alive;
    REQUIRE(alive == pool->live, "%s pool: %d live slots, %d counted", name, pool->live, alive);
    int free_slots = 0;
    for (int i = pool->free_head; i >= 0; i = ((const SteerPoolHeader *)steer_pool_at(pool, i))->next_free) {
        REQUIRE(i < pool->count, "%s pool: free list reaches slot %d of %d", name, i, pool->count);
        REQUIRE(!((const SteerPoolHeader *)steer_pool_at(pool, i))->alive, "%s pool: live slot %d on the free list",
                name, i);
        REQUIRE(++free_slots <= pool->count - alive, "%s pool: the free list loops", name);
    }
    REQUIRE(free_slots == pool->count - alive, "%s pool: %d free slots listed, %d dead", name, free_slots,
            pool->count - alive);
    return true;
}

static bool check_slot(Check *c, const SteerVehicle *v, int index, const SteerBehaviourSlot *slot)
{
    const SteerBehaviourDef *def = &slot->def;
    const SteerSlotState *s = &slot->state;
    const SteerSlotDetail *d = &slot->detail;
    REQUIRE((int)def->type >= 0 && def->type < STEER_BEHAVIOUR_COUNT, "vehicle %d: behaviour type %d", index,
            (int)def->type);
    const char *name = steer_behaviour_name(def->type);
    REQUIRE(within(def->weight, 0.0, STEER_MAX_WEIGHT), "vehicle %d %s: weight %g", index, name, def->weight);
    REQUIRE(within(def->probability, 0.0, 1.0), "vehicle %d %s: probability %g", index, name, def->probability);
    REQUIRE(steer_vec2_is_finite(s->force), "vehicle %d %s: force (%g, %g)", index, name, s->force.x, s->force.y);
    REQUIRE(within(s->kept, 0.0, 1.0), "vehicle %d %s: kept %g", index, name, s->kept);
    REQUIRE(steer_vec2_is_finite(s->target) && steer_vec2_is_finite(s->wander_target),
            "vehicle %d %s: target not finite", index, name);
    REQUIRE(isfinite(d->box_length), "vehicle %d %s: box_length %g", index, name, d->box_length);
    for (int f = 0; f < 3; f++)
        REQUIRE(steer_vec2_is_finite(d->feelers[f]), "vehicle %d %s: feeler %d", index, name, f);
    REQUIRE(steer_vec2_is_finite(slot->wander_local) && steer_vec2_is_finite(slot->noise_offset) &&
                isfinite(slot->roam_time),
            "vehicle %d %s: wander state not finite", index, name);
    REQUIRE(slot->waypoint >= 0, "vehicle %d %s: waypoint %d", index, name, slot->waypoint);
    (void)v;
    return true;
}

static bool check_vehicle(Check *c, const SteerWorld *world, int index, const SteerVehicle *v)
{
    const SteerVehicleCold *cold = steer_vehicle_cold(world, v);
    REQUIRE(point_ok(v->position, STEER_MAX_COORDINATE), "vehicle %d: position (%g, %g)", index, v->position.x,
            v->position.y);
    REQUIRE(point_ok(v->spawn, STEER_MAX_COORDINATE), "vehicle %d: spawn (%g, %g)", index, v->spawn.x, v->spawn.y);
    for (int f = 0; f < STEER_VEHICLE_FIELD_COUNT; f++) {
        double value = steer_vehicle_load_field(world, v, (SteerVehicleField)f);
        REQUIRE(steer_vehicle_field_ok((SteerVehicleField)f, value), "vehicle %d: %s %g", index,
                steer_vehicle_field_table[f].name, value);
    }
    REQUIRE(isfinite(v->view_cos), "vehicle %d: view_cos %g", index, v->view_cos);
    REQUIRE(steer_vec2_is_finite(v->velocity), "vehicle %d: velocity (%g, %g)", index, v->velocity.x, v->velocity.y);
    /* Truncation rounds: allow an ulp or so over max_speed. */
    REQUIRE(steer_length(v->velocity) <= v->max_speed * (1.0 + 1e-12), "vehicle %d: speed %.17g over max_speed %.17g",
            index, steer_length(v->velocity), v->max_speed);
    REQUIRE(steer_vec2_is_finite(v->heading) && fabs(steer_length(v->heading) - 1.0) < 1e-6,
            "vehicle %d: heading (%g, %g)", index, v->heading.x, v->heading.y);
    REQUIRE(steer_vec2_is_finite(v->force), "vehicle %d: force (%g, %g)", index, v->force.x, v->force.y);
    /* (not bounded by max_force: that may have been lowered since the step that applied it) */
    REQUIRE(v->kind < STEER_MAX_KINDS, "vehicle %d: kind %u", index, v->kind);
    REQUIRE(v->combine == STEER_COMBINE_WEIGHTED || v->combine == STEER_COMBINE_PRIORITY ||
                v->combine == STEER_COMBINE_DITHER,
            "vehicle %d: combine %d", index, (int)v->combine);
    REQUIRE(v->behaviour_count >= 0 && v->behaviour_count <= cold->behaviour_capacity &&
                v->behaviour_count <= STEER_BEHAVIOUR_COUNT,
            "vehicle %d: %d behaviours, capacity %d", index, v->behaviour_count, cold->behaviour_capacity);
    REQUIRE(cold->behaviour_capacity == 0 || v->behaviours, "vehicle %d: no behaviour array", index);
    REQUIRE(cold->serial > 0 && cold->serial < world->next_serial, "vehicle %d: serial %llu", index,
            (unsigned long long)cold->serial);
    for (int i = 0; i < v->behaviour_count; i++) {
        if (!check_slot(c, v, index, &v->behaviours[i])) return false;
        for (int j = 0; j < i; j++)
            REQUIRE(v->behaviours[j].def.type != v->behaviours[i].def.type, "vehicle %d: %s is on twice", index,
                    steer_behaviour_name(v->behaviours[i].def.type));
    }
    return true;
}

static bool check_vehicles(Check *c, const SteerWorld *world)
{
    const SteerPool *pool = &world->vehicles;
    if (!check_pool(c, pool, "vehicle")) return false;
    REQUIRE(world->order_count >= 0 && world->order_count <= world->order_capacity, "order: %d of %d",
            world->order_count, world->order_capacity);
    int holes = 0, population[STEER_MAX_KINDS] = {0};
    uint64_t last_serial = 0;
    for (int i = 0; i < world->order_count; i++) {
        int index = world->order[i];
        if (index < 0) {
            REQUIRE(index == -1, "order[%d] = %d", i, index);
            holes++;
            continue;
        }
        REQUIRE(index < pool->count, "order[%d] = %d, past the pool's %d slots", i, index, pool->count);
        const SteerVehicle *v = steer_pool_at(pool, index);
        REQUIRE(v->header.alive, "order[%d] names dead slot %d", i, index);
        REQUIRE(v->rank == i, "vehicle %d: rank %d, listed at %d", index, v->rank, i);
        REQUIRE(steer_vehicle_cold(world, v)->serial > last_serial, "order[%d]: serial %llu after %llu", i,
                (unsigned long long)steer_vehicle_cold(world, v)->serial, (unsigned long long)last_serial);
        last_serial = steer_vehicle_cold(world, v)->serial;
        if (!check_vehicle(c, world, index, v)) return false;
        population[v->kind]++; /* kind < STEER_MAX_KINDS: check_vehicle */
    }
    for (int k = 0; k < STEER_MAX_KINDS; k++)
        REQUIRE(population[k] == world->kind_population[k], "kind %d: %d vehicles, %d counted", k, population[k],
                world->kind_population[k]);
    REQUIRE(holes == world->order_holes, "order: %d holes, %d counted", world->order_holes, holes);
    /* Each live slot is listed once: ranks are distinct (checked above) and the counts agree. */
    REQUIRE(world->order_count - holes == pool->live, "order lists %d vehicles, the pool holds %d",
            world->order_count - holes, pool->live);
    return true;
}

static bool check_shapes(Check *c, const SteerWorld *world)
{
    if (!check_pool(c, &world->obstacles, "obstacle") || !check_pool(c, &world->walls, "wall") ||
        !check_pool(c, &world->paths, "path") || !check_pool(c, &world->fields, "flow field"))
        return false;
    for (int i = 0; i < world->obstacles.count; i++) {
        const SteerObstacle *o = steer_pool_at(&world->obstacles, i);
        if (!o->header.alive) continue;
        REQUIRE(point_ok(o->center, STEER_MAX_COORDINATE) && within(o->radius, STEER_MIN_POSITIVE, STEER_MAX_LENGTH),
                "obstacle %d: (%g, %g) r %g", i, o->center.x, o->center.y, o->radius);
    }
    for (int i = 0; i < world->walls.count; i++) {
        const SteerWall *w = steer_pool_at(&world->walls, i);
        if (!w->header.alive) continue;
        REQUIRE(point_ok(w->a, STEER_MAX_COORDINATE) && point_ok(w->b, STEER_MAX_COORDINATE) &&
                    point_ok(w->normal, 1.0 + 1e-9),
                "wall %d is out of range", i);
    }
    for (int i = 0; i < world->paths.count; i++) {
        const SteerPath *p = steer_pool_at(&world->paths, i);
        if (!p->header.alive) continue;
        REQUIRE(p->count >= 1 && p->points, "path %d: %d points", i, p->count);
        for (int k = 0; k < p->count; k++)
            REQUIRE(point_ok(p->points[k], STEER_MAX_COORDINATE), "path %d: point %d", i, k);
    }
    for (int i = 0; i < world->fields.count; i++) {
        const SteerFlowField *f = steer_pool_at(&world->fields, i);
        if (!f->header.alive) continue;
        REQUIRE(point_ok(f->origin, STEER_MAX_COORDINATE) &&
                    within(f->cell_size, STEER_MIN_POSITIVE, STEER_MAX_LENGTH) && f->cols >= 1 && f->rows >= 1 &&
                    f->vectors,
                "flow field %d is out of range", i);
        for (size_t k = 0; k < (size_t)f->cols * (size_t)f->rows; k++)
            REQUIRE(point_ok(f->vectors[k], STEER_MAX_LENGTH), "flow field %d: vector %zu", i, k);
    }
    return true;
}

/// A current build's copies of what behaviours decide (patched in place by behaviour switches):
/// each vehicle's wants and step class, and the numbers each task range draws.
static bool check_grid_plan(Check *c, const SteerWorld *world)
{
    const SteerGrid *g = &world->grid;
    if (world->grid_stale || g->count != world->order_count) return true;
    int draws[STEER_MAX_THREADS] = {0};
    for (int rank = 0; rank < g->count; rank++) {
        int slot = world->order[rank];
        if (slot < 0) continue;
        const SteerVehicle *v = steer_pool_at(&world->vehicles, slot);
        const SteerGridQuick *q = &g->quick[rank];
        REQUIRE(q->wants == v->wants_neighbourhood && q->step_class == v->step_class,
                "grid: rank %d copies wants %d class %#x, the vehicle has %d %#x", rank, q->wants, q->step_class,
                v->wants_neighbourhood, v->step_class);
        REQUIRE((g->step_classes & v->step_class) == v->step_class, "grid: plan's classes %#x miss rank %d's %#x",
                g->step_classes, rank, v->step_class);
        for (int t = 0; t < g->plan_tasks; t++) {
            int begin, end;
            steer_task_range(g->count, g->plan_tasks, t, &begin, &end);
            if (rank >= begin && rank < end) draws[t] += v->step_class & STEER_STEP_DRAWS;
        }
    }
    for (int t = 0; t < g->plan_tasks && t < STEER_MAX_THREADS; t++)
        REQUIRE(g->draws[t] == draws[t], "grid: range %d draws %d per step, its vehicles %d", t, g->draws[t], draws[t]);
    if (!g->gathered) return true;
    for (int k = 0; k < g->count; k++) {
        const SteerGridAsker *a = &g->asker[k];
        int slot = world->order[a->rank];
        if (slot < 0) continue;
        const SteerVehicle *v = steer_pool_at(&world->vehicles, slot);
        REQUIRE(a->wants == v->wants_neighbourhood && g->entry[k].wants == v->wants_neighbourhood,
                "grid: sorted %d (rank %d) copies wants %d/%d, the vehicle has %d", k, a->rank, a->wants,
                g->entry[k].wants, v->wants_neighbourhood);
        REQUIRE(!(a->wants && !a->fast) || g->slow_askers, "grid: sorted %d asks slowly, the plan says none does", k);
    }
    return true;
}

/// The last build's cells: a partition of the vehicles it sorted.
static bool check_grid(Check *c, const SteerWorld *world)
{
    const SteerGrid *g = &world->grid;
    if (g->builds == 0) return true;
    REQUIRE(g->cols >= 1 && g->rows >= 1 && (long long)g->cols * g->rows < g->cell_capacity,
            "grid: %d x %d cells, room for %d", g->cols, g->rows, g->cell_capacity);
    REQUIRE(within(g->cell_w, 0.0, INFINITY) && g->cell_w > 0.0 && within(g->cell_h, 0.0, INFINITY) && g->cell_h > 0.0,
            "grid: cells of %g x %g", g->cell_w, g->cell_h);
    REQUIRE(isfinite(g->origin_x) && isfinite(g->origin_y), "grid: origin (%g, %g)", g->origin_x, g->origin_y);
    int cells = g->cols * g->rows;
    REQUIRE(g->cell_start[0] == 0 && g->cell_start[cells] == g->count, "grid: cells hold %d of %d vehicles",
            g->cell_start[cells], g->count);
    for (int i = 0; i < cells; i++)
        REQUIRE(g->cell_start[i] <= g->cell_start[i + 1], "grid: cell %d starts after the next", i);
    return check_grid_plan(c, world);
}

/* ---- Senses ------------------------------------------------------------------------------- */

/// Events the reader (steer_world_get_sense_events) makes of a sense's flags and notes.
static int sense_events_counted(const SteerSense *s)
{
    int n = 0;
    for (int m = 0; m < s->memory_count; m++) n += (s->memories[m].events & (STEER_NOTE_SENSED | STEER_NOTE_LOST)) != 0;
    for (int k = 0; k < s->note_count; k++) {
        unsigned e = s->notes[k].events;
        n += (e & STEER_NOTE_LOST) != 0;
        n += (e & STEER_NOTE_FORGOT) != 0;
        n += (e & STEER_NOTE_HEARD) && (e & STEER_NOTE_REPORT);
    }
    return n;
}

/// The first step after the last one at which a sense of `period` steps updates (the vehicle's serial
/// staggers it).
static uint64_t next_update(uint64_t step, uint64_t serial, uint64_t period)
{
    uint64_t u = step + 1;
    return u + (period - (u + serial) % period) % period;
}

/// One sense: its definition as the pass keeps it, its memories (in creation order, within its
/// capacity), its notes and the events they make.
static bool check_sense(Check *c, const SteerWorld *world, int slot, int i, const SteerSense *s, const char *end)
{
    const SteerSenseDef *d = &s->def;
    size_t name_length = strnlen(s->name, sizeof s->name);
    REQUIRE(name_length > 0 && name_length < sizeof s->name, "senses: vehicle slot %d sense %d: bad name", slot, i);
    REQUIRE(d->type == (SteerSenseType)s->type && (d->type == STEER_SENSE_SIGHT || d->type == STEER_SENSE_HEARING),
            "senses: slot %d sense '%s': type %d (kept as %d)", slot, s->name, (int)d->type, s->type);
    REQUIRE(d->max_memories == s->max_memories && s->max_memories >= 1 && s->max_memories <= STEER_MAX_MEMORIES &&
                s->max_memories <= world->sense_scratch_max,
            "senses: slot %d sense '%s': max_memories %d (kept as %d, scratch for %d)", slot, s->name, d->max_memories,
            s->max_memories, world->sense_scratch_max);
    REQUIRE(d->events == s->report && !(d->events & ~STEER_SENSE_EVENTS_ALL),
            "senses: slot %d sense '%s': events %#x (kept as %#x)", slot, s->name, d->events, s->report);
    REQUIRE(s->range == d->range && s->filter == (d->type == STEER_SENSE_SIGHT ? d->kinds : d->tags),
            "senses: slot %d sense '%s': range or filter differ from its definition", slot, s->name);
    double dts[2] = {world->sense_dt, world->def.dt};
    bool period_ok = false, forget_ok = false;
    for (int k = 0; k < 2; k++) {
        if (!(dts[k] > 0.0)) continue;
        period_ok |= s->period == steer_sense_period_steps(d->period, dts[k]);
        forget_ok |= s->forget_steps == steer_sense_forget_steps(d->forget_after, dts[k]);
    }
    REQUIRE(period_ok && forget_ok, "senses: slot %d sense '%s': %llu steps between updates, forgets after %llu", slot,
            s->name, (unsigned long long)s->period, (unsigned long long)s->forget_steps);
    REQUIRE(s->last_update <= world->step_count, "senses: slot %d sense '%s': last update at step %llu of %llu", slot,
            s->name, (unsigned long long)s->last_update, (unsigned long long)world->step_count);
    int notes = steer_sense_note_capacity((SteerSenseType)s->type, s->max_memories);
    REQUIRE((const char *)s->memories >= (const char *)(s + 1) &&
                (const char *)(s->memories + s->max_memories) <= end &&
                (const char *)s->notes >= (const char *)(s + 1) && (const char *)(s->notes + notes) <= end,
            "senses: slot %d sense '%s': its memories or notes lie outside the vehicle's block", slot, s->name);
    REQUIRE(s->memory_count >= 0 && s->memory_count <= s->max_memories,
            "senses: slot %d sense '%s': %d memories of at most %d", slot, s->name, s->memory_count, s->max_memories);
    for (int m = 0; m < s->memory_count; m++) {
        const SteerSenseMemory *r = &s->memories[m];
        REQUIRE(m == 0 || s->memories[m - 1].serial < r->serial,
                "senses: slot %d sense '%s': memory %d out of creation order", slot, s->name, m);
        REQUIRE(r->serial > 0 && r->serial < world->next_serial && r->other.world == world->tag,
                "senses: slot %d sense '%s': memory %d of serial %llu", slot, s->name, m,
                (unsigned long long)r->serial);
        REQUIRE(r->step <= world->step_count && (!r->sensed_now || r->step == s->last_update),
                "senses: slot %d sense '%s': memory %d last sensed at step %llu (sensed now %d, last update %llu)",
                slot, s->name, m, (unsigned long long)r->step, r->sensed_now, (unsigned long long)s->last_update);
        unsigned e = r->events;
        REQUIRE(!(e & ~(STEER_NOTE_SENSED | STEER_NOTE_LOST)) && (!(e & STEER_NOTE_SENSED) || r->sensed_now) &&
                    (!(e & STEER_NOTE_LOST) || !r->sensed_now),
                "senses: slot %d sense '%s': memory %d has events %#x (sensed now %d)", slot, s->name, m, e,
                r->sensed_now);
    }
    REQUIRE(s->note_split >= 0 && s->note_split <= s->note_count && s->note_count <= notes,
            "senses: slot %d sense '%s': notes %d (split at %d) of at most %d", slot, s->name, s->note_count,
            s->note_split, notes);
    for (int k = 0; k < s->note_count; k++) {
        unsigned e = s->notes[k].events;
        bool heard = e & STEER_NOTE_HEARD;
        REQUIRE(heard ? k >= s->note_split && !(e & ~(STEER_NOTE_HEARD | STEER_NOTE_REPORT))
                      : (e & (STEER_NOTE_LOST | STEER_NOTE_FORGOT)) &&
                            !(e & ~(STEER_NOTE_LOST | STEER_NOTE_FORGOT | STEER_NOTE_PUSHED)) &&
                            ((k < s->note_split) == !(e & STEER_NOTE_PUSHED)),
                "senses: slot %d sense '%s': note %d has events %#x (split at %d)", slot, s->name, k, e, s->note_split);
        REQUIRE(heard || k == 0 || k >= s->note_split || s->notes[k - 1].serial < s->notes[k].serial,
                "senses: slot %d sense '%s': note %d out of creation order", slot, s->name, k);
    }
    int counted = sense_events_counted(s);
    REQUIRE(s->event_count == counted, "senses: slot %d sense '%s': %d events counted, its memories and notes make %d",
            slot, s->name, s->event_count, counted);
    return true;
}

/// The sensing vehicles: listed once each in creation order, every one with senses or a timer;
/// each one's block, senses and events; when the pass must visit it next; the last step's event
/// lists; the sounds.
static bool check_senses(Check *c, const SteerWorld *world)
{
    REQUIRE(world->sensing_count >= 0 && world->sensing_count <= world->sensing_capacity &&
                world->event_vehicles >= 0 && world->event_vehicles <= world->sensing_capacity,
            "senses: %d listed, %d with events, room for %d", world->sensing_count, world->event_vehicles,
            world->sensing_capacity);
    int sights = 0, hearings = 0, with_anything = 0;
    for (int slot = 0; slot < world->sensor_capacity; slot++) {
        const SteerSensor *sensor = &world->sensors[slot];
        bool any = sensor->sense_count > 0 || sensor->wake_step != 0;
        if (!any && !sensor->senses) continue;
        const SteerVehicle *v = slot < world->vehicles.count ? steer_pool_at(&world->vehicles, slot) : NULL;
        REQUIRE(v && v->header.alive, "senses: slot %d has senses or a timer but no vehicle", slot);
        with_anything += any;
        REQUIRE(sensor->sense_count >= 0 && sensor->sense_count <= STEER_MAX_SENSES &&
                    (sensor->sense_count > 0) == (sensor->senses != NULL),
                "senses: slot %d: %d senses (block %s)", slot, sensor->sense_count, sensor->senses ? "set" : "none");
        REQUIRE(sensor->wake_step == 0 || sensor->wake_step > world->step_count,
                "senses: slot %d: its timer fires at step %llu, step %llu is done", slot,
                (unsigned long long)sensor->wake_step, (unsigned long long)world->step_count);
        int events = sensor->woke ? 1 : 0;
        if (sensor->senses) {
            const SteerSenseBlock *block = steer_sense_block_of(sensor->senses);
            REQUIRE(block->size_class >= 0 && block->size_class < STEER_SENSE_SIZE_CLASSES &&
                        block->serial == world->vehicle_cold[slot].serial,
                    "senses: slot %d: its block (class %d) names serial %llu, the vehicle is %llu", slot,
                    block->size_class, (unsigned long long)block->serial,
                    (unsigned long long)world->vehicle_cold[slot].serial);
            const char *end = (const char *)block + steer_sense_class_size(block->size_class);
            REQUIRE((const char *)(sensor->senses + sensor->sense_count) <= end,
                    "senses: slot %d: %d senses overrun the block", slot, sensor->sense_count);
            for (int i = 0; i < sensor->sense_count; i++) {
                const SteerSense *s = &sensor->senses[i];
                if (!check_sense(c, world, slot, i, s, end)) return false;
                for (int j = 0; j < i; j++)
                    REQUIRE(strcmp(sensor->senses[j].name, s->name) != 0, "senses: slot %d has two senses '%s'", slot,
                            s->name);
                if (s->type == STEER_SENSE_SIGHT)
                    sights++;
                else
                    hearings++;
                events += s->event_count;
            }
        }
        REQUIRE(sensor->event_count == events, "senses: slot %d: %d events counted, its timer and senses make %d", slot,
                sensor->event_count, events);
    }
    REQUIRE(sights == world->sight_senses, "senses: %d sight senses counted, %d found", world->sight_senses, sights);
    int tallied = 0;
    for (int i = 0; i < world->hearing_period_count; i++) {
        REQUIRE(world->hearing_periods[i].count > 0, "senses: hearing period %g counted %d times",
                world->hearing_periods[i].period, world->hearing_periods[i].count);
        tallied += world->hearing_periods[i].count;
    }
    REQUIRE(tallied == hearings, "senses: %d hearing senses by period, %d found", tallied, hearings);
    REQUIRE(with_anything == world->sensing_count, "senses: %d listed, %d vehicles with senses or a timer",
            world->sensing_count, with_anything);
    bool current = world->sense_dt == world->def.dt; /* (else the next pass visits every one anyway) */
    for (int i = 0; i < world->sensing_count; i++) {
        const SteerSensing *entry = &world->sensing[i];
        int slot = entry->slot;
        REQUIRE(slot >= 0 && slot < world->sensor_capacity && slot < world->vehicles.count &&
                    ((const SteerVehicle *)steer_pool_at(&world->vehicles, slot))->header.alive,
                "senses: listed %d is slot %d, no live vehicle", i, slot);
        const SteerSensor *sensor = &world->sensors[slot];
        REQUIRE(sensor->sense_count > 0 || sensor->wake_step != 0, "senses: listed %d (slot %d) has nothing", i, slot);
        REQUIRE(entry->senses == sensor->senses, "senses: listed %d (slot %d) points at another block than its own", i,
                slot);
        REQUIRE(entry->serial == world->vehicle_cold[slot].serial &&
                    (i == 0 || world->sensing[i - 1].serial < entry->serial),
                "senses: listed %d (slot %d, serial %llu) out of creation order", i, slot,
                (unsigned long long)entry->serial);
        if (!current || entry->next_visit <= world->step_count) continue;
        /* Visited no later than anything falls due: its timer, an update, a forgetting. */
        uint64_t due = sensor->wake_step ? sensor->wake_step : UINT64_MAX;
        uint64_t serial = world->vehicle_cold[slot].serial;
        for (int k = 0; k < sensor->sense_count; k++) {
            const SteerSense *s = &sensor->senses[k];
            uint64_t u = next_update(world->step_count, serial, s->period);
            if (u < due) due = u;
            for (int m = 0; m < s->memory_count; m++) {
                const SteerSenseMemory *r = &s->memories[m];
                if (r->sensed_now) continue;
                uint64_t f = r->step + s->forget_steps + 1;
                if (f < due) due = f;
            }
        }
        REQUIRE(entry->next_visit <= due, "senses: listed %d (slot %d) next visited at step %llu, due at %llu", i, slot,
                (unsigned long long)entry->next_visit, (unsigned long long)due);
    }
    if (!world->events_dirty && world->event_vehicles > 0) {
        REQUIRE(world->event_start[0] == 0, "senses: events start at %d", world->event_start[0]);
        for (int e = 0; e < world->event_vehicles; e++) {
            int slot = world->event_slots[e];
            REQUIRE(slot >= 0 && slot < world->sensor_capacity && slot < world->vehicles.count &&
                        ((const SteerVehicle *)steer_pool_at(&world->vehicles, slot))->header.alive,
                    "senses: events of slot %d, no live vehicle", slot);
            int count = world->event_start[e + 1] - world->event_start[e];
            REQUIRE(count > 0 && count == world->sensors[slot].event_count,
                    "senses: %d events listed for slot %d, it has %d", count, slot, world->sensors[slot].event_count);
            REQUIRE(e == 0 || world->vehicle_cold[world->event_slots[e - 1]].serial < world->vehicle_cold[slot].serial,
                    "senses: events of slot %d out of creation order", slot);
        }
    }
    REQUIRE(world->sound_count >= 0 && world->sound_count <= world->sound_capacity, "senses: %d sounds, room for %d",
            world->sound_count, world->sound_capacity);
    for (int i = 0; i < world->sound_count; i++) {
        const SteerSound *sound = &world->sounds[i];
        REQUIRE(sound->step <= world->step_count + 1 && sound->def.tag < STEER_MAX_SOUND_TAGS &&
                    within(sound->def.radius, STEER_MIN_POSITIVE, STEER_MAX_LENGTH),
                "senses: sound %d (step %llu, tag %u, radius %g)", i, (unsigned long long)sound->step, sound->def.tag,
                sound->def.radius);
    }
    return true;
}

bool steer_world_check_state(const SteerWorld *world, char *why, size_t why_size)
{
    Check check = {why, why_size, true}, *c = &check;
    if (why && why_size > 0) why[0] = '\0';
    REQUIRE(isfinite(world->time) && world->time >= 0.0, "time %g", world->time);
    REQUIRE(within(world->def.dt, STEER_MIN_POSITIVE, 1.0), "dt %g", world->def.dt);
    REQUIRE(within(world->def.width, STEER_MIN_POSITIVE, STEER_MAX_LENGTH) &&
                within(world->def.height, STEER_MIN_POSITIVE, STEER_MAX_LENGTH),
            "world size %g x %g", world->def.width, world->def.height);
    return check_vehicles(c, world) && check_shapes(c, world) && check_grid(c, world) && check_senses(c, world);
}
