/* SPDX-License-Identifier: MIT */
/* checksum.c - a 64-bit sum of a world's state, for replays: two runs that should be identical
 * compare sums instead of every field. Fields are summed one by one (never raw struct bytes, whose
 * padding is undefined), doubles by their bits, so -0.0 and 0.0 differ and any changed bit shows. */
#include <string.h>

#include "fields.h"

/* One word into the running sum: a multiply-xorshift mix (each input bit reaches every output
 * bit), order-sensitive so that swapping two fields changes the sum. */
static inline uint64_t mix(uint64_t h, uint64_t word)
{
    h ^= word + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
    return h;
}

static inline uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static inline uint64_t mix_vec(uint64_t h, SteerVec2 v) { return mix(mix(h, bits(v.x)), bits(v.y)); }

/* What a behaviour keeps between steps and what makes it a different behaviour: its type, weight,
 * priority, probability, current waypoint, wander point and roam state. (Its other parameters are
 * what the script gave; a different one shows in the next step's positions.) */
static uint64_t mix_slot(uint64_t h, const SteerBehaviourSlot *s)
{
    h = mix(h, (uint64_t)s->def.type);
    h = mix(h, bits(s->def.weight));
    h = mix(h, (uint64_t)(int64_t)s->def.priority);
    h = mix(h, bits(s->def.probability));
    h = mix(h, (uint64_t)s->lost);
    h = mix(h, (uint64_t)(int64_t)s->waypoint);
    h = mix_vec(h, s->wander_local);
    h = mix_vec(h, s->noise_offset);
    return mix(h, bits(s->roam_time));
}

static uint64_t mix_memory(uint64_t h, const SteerSenseMemory *m)
{
    h = mix(h, m->serial);
    h = mix_vec(h, m->position);
    h = mix_vec(h, m->velocity);
    h = mix(h, m->step);
    h = mix(h, bits(m->time));
    h = mix(h, bits(m->distance));
    return mix(h, (uint64_t)m->sensed_now);
}

/* A vehicle's senses (definition, memories, when each last updated) and timer: summed only for a
 * vehicle that has any, so that the sums of worlds without senses are those they always were. */
static uint64_t mix_senses(uint64_t h, const SteerSensor *sensor)
{
    h = mix(h, 0x5e75e5ULL);
    h = mix(h, sensor->wake_step);
    h = mix(h, (uint64_t)(int64_t)sensor->sense_count);
    for (int i = 0; i < sensor->sense_count; i++) {
        const SteerSense *s = &sensor->senses[i];
        for (const char *c = s->name; *c; c++) h = mix(h, (unsigned char)*c);
        h = mix(h, (uint64_t)s->def.type);
        h = mix(h, bits(s->def.range));
        h = mix(h, bits(s->def.fov));
        h = mix(h, s->def.kinds);
        h = mix(h, s->def.tags);
        h = mix(h, (uint64_t)s->def.walls_block << 1 | (uint64_t)s->def.obstacles_block);
        h = mix(h, bits(s->def.forget_after));
        h = mix(h, bits(s->def.period));
        h = mix(h, (uint64_t)(int64_t)s->def.max_memories);
        /* (a sense that reports every event sums as it did before masks were) */
        if (s->def.events != STEER_SENSE_EVENTS_ALL) h = mix(h, 0xe7e4700000000000ULL | s->def.events);
        h = mix(h, s->last_update);
        h = mix(h, (uint64_t)(int64_t)s->memory_count);
        for (int m = 0; m < s->memory_count; m++) h = mix_memory(h, &s->memories[m]);
    }
    return h;
}

static uint64_t vehicle_sum(const SteerWorld *world, const SteerVehicle *v)
{
    const SteerVehicleCold *cold = steer_vehicle_cold(world, v);
    uint64_t h = mix(0x5ee7c4ec55u, cold->serial);
    h = mix(h, v->kind);
    h = mix_vec(h, v->position);
    h = mix_vec(h, v->velocity);
    h = mix_vec(h, v->heading);
    h = mix_vec(h, steer_vehicle_side(v));
    h = mix_vec(h, v->force);
    h = mix_vec(h, v->spawn);
    h = mix(h, bits(v->radius));
    h = mix(h, bits(v->neighbor_radius));
    h = mix(h, bits(cold->view_angle));
    h = mix(h, v->flock_kinds);
    h = mix(h, bits(v->mass));
    h = mix(h, bits(v->max_speed));
    h = mix(h, bits(v->max_force));
    h = mix(h, bits(v->max_turn_rate));
    h = mix(h, bits(v->response_time));
    /* Rows of the field table past those summed above (by name, in the order recorded replays'
     * checksums depend on): each further tunable by its row. */
    for (int f = STEER_FIELDS_SUMMED_BY_NAME; f < STEER_VEHICLE_FIELD_COUNT; f++)
        h = mix(h, bits(steer_vehicle_load_field(world, v, (SteerVehicleField)f)));
    h = mix(h, (uint64_t)v->combine);
    h = mix(h, cold->color);
    h = mix(h, cold->user_data);
    h = mix(h, (uint64_t)(int64_t)v->behaviour_count);
    for (int i = 0; i < v->behaviour_count; i++) h = mix_slot(h, &v->behaviours[i]);
    int slot = steer_vehicle_slot(world, v);
    if (slot < world->sensor_capacity) {
        const SteerSensor *sensor = &world->sensors[slot];
        if (sensor->sense_count > 0 || sensor->wake_step != 0) h = mix_senses(h, sensor);
    }
    return h;
}

uint64_t steer_vehicle_checksum(const SteerWorld *world, SteerVehicleId id)
{
    const SteerVehicle *v = steer_vehicle_lookup(world, id);
    return v ? vehicle_sum(world, v) : 0;
}

uint64_t steer_world_checksum(const SteerWorld *world)
{
    uint64_t h = mix(0x57ee7ULL, world->step_count);
    h = mix(h, bits(world->time));
    h = mix(h, bits(world->def.dt));
    h = mix(h, world->rng.state);
    h = mix(h, world->rng.increment);
    h = mix(h, world->noise_seed);
    h = mix(h, world->next_serial);
    h = mix(h, (uint64_t)world->obstacles.live);
    h = mix(h, (uint64_t)world->walls.live);
    h = mix(h, (uint64_t)world->paths.live);
    h = mix(h, (uint64_t)world->fields.live);
    h = mix(h, (uint64_t)world->vehicles.live);
    /* Sounds waiting to be heard (only when there are any: older sums stay as they were). */
    if (world->sound_count > 0) {
        h = mix(h, (uint64_t)world->sound_count);
        for (int i = 0; i < world->sound_count; i++) {
            const SteerSound *s = &world->sounds[i];
            h = mix_vec(h, s->def.position);
            h = mix(h, bits(s->def.radius));
            h = mix(h, s->def.tag);
            h = mix(h, s->source_serial);
            h = mix_vec(h, s->velocity);
            h = mix(h, s->step);
        }
    }
    for (int i = 0; i < world->order_count; i++) { /* creation order: the same in every run */
        if (world->order[i] < 0) continue;         /* a removal's hole */
        h = mix(h, vehicle_sum(world, steer_pool_at(&world->vehicles, world->order[i])));
    }
    return h;
}
