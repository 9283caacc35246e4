/* SPDX-License-Identifier: MIT */
/* debug_draw.c - the world as segments, circles and polygons for a SteerDebugDraw (see
 * steer_debug_draw.h). Reads the per-behaviour state the last step recorded and the slots' own
 * state (wander target); changes nothing and allocates nothing. */
#include "behaviours_internal.h"
#include "nav_internal.h"

/* A vehicle's drawing pose: the caller's (interpolated) one when it gives one. */
typedef struct Pose {
    SteerVehicleId id;
    SteerVec2 position, heading;
} Pose;

SteerDebugDraw steer_default_debug_draw(void)
{
    /* The world itself on: a caller who only sets the callbacks sees something. */
    SteerDebugDraw draw = {0};
    draw.flags = STEER_DEBUG_DRAW_WORLD;
    return draw;
}

uint32_t steer_debug_kind_color(uint32_t kind)
{
    /* Twelve hues far apart on a dark background, brightest first (kind 0 is the common one). */
    static const uint32_t palette[12] = {
        0x5fb3f9ff, /* sky blue */
        0xf2667aff, /* coral red */
        0x7ee081ff, /* green */
        0xf7c548ff, /* amber */
        0xc58cf2ff, /* violet */
        0x4fd6c8ff, /* teal */
        0xff9f43ff, /* orange */
        0xf78fd3ff, /* pink */
        0xb8e05aff, /* lime */
        0x8fa3ffff, /* periwinkle */
        0xe0c09aff, /* sand */
        0xdededeff, /* light grey */
    };
    return palette[kind % 12u];
}

void steer_debug_vehicle_shape(SteerVec2 position, SteerVec2 heading, double radius, SteerVec2 points[3])
{
    /* Longer than wide so the heading reads at a glance even at small sizes. */
    points[0] = steer_add(position, steer_rotate(steer_vec2(1.5 * radius, 0.0), heading));
    points[1] = steer_add(position, steer_rotate(steer_vec2(-radius, 0.9 * radius), heading));
    points[2] = steer_add(position, steer_rotate(steer_vec2(-radius, -0.9 * radius), heading));
}

/* Every shape goes out with the layer it belongs to (SteerDebugLayer): callers style by it. */
static void segment(const SteerDebugDraw *d, SteerVec2 a, SteerVec2 b, uint32_t color, SteerDebugLayer layer)
{
    if (d->draw_segment) d->draw_segment(a, b, color, layer, d->context);
}

static void circle(const SteerDebugDraw *d, SteerVec2 c, double r, uint32_t color, SteerDebugLayer layer)
{
    if (d->draw_circle) d->draw_circle(c, r, color, layer, d->context);
}

static void point(const SteerDebugDraw *d, SteerVec2 p, double size, uint32_t color, SteerDebugLayer layer)
{
    if (d->draw_point) d->draw_point(p, size, color, layer, d->context);
}

static void polygon(const SteerDebugDraw *d, const SteerVec2 *points, int count, uint32_t color, SteerDebugLayer layer)
{
    if (d->draw_polygon) d->draw_polygon(points, count, color, layer, d->context);
}

/// A segment with a two-stroke head at `tip`; nothing for a zero-length arrow.
static void arrow(const SteerDebugDraw *d, SteerVec2 from, SteerVec2 tip, uint32_t color, SteerDebugLayer layer)
{
    SteerVec2 v = steer_sub(tip, from);
    double length = steer_length(v);
    if (length < 1e-9) return;
    segment(d, from, tip, color, layer);
    double head = length < 24.0 ? length * 0.25 : 6.0;
    SteerVec2 back = steer_scale(v, -head / length);
    SteerVec2 side = steer_scale(steer_perp(v), 0.5 * head / length);
    segment(d, tip, steer_add(tip, steer_add(back, side)), color, layer);
    segment(d, tip, steer_add(tip, steer_sub(back, side)), color, layer);
}

/// An arc of `radius` around `center` from angle a0 to a1 (radians), as segments.
static void arc(const SteerDebugDraw *d, SteerVec2 center, double radius, double a0, double a1, uint32_t color,
                SteerDebugLayer layer)
{
    if (d->draw_arc) {
        d->draw_arc(center, radius, a0, a1, color, layer, d->context);
        return;
    }
    enum { PIECES = 24 };
    SteerVec2 previous = steer_add(center, steer_scale(steer_vec2_from_angle(a0), radius));
    for (int i = 1; i <= PIECES; i++) {
        double a = a0 + (a1 - a0) * i / PIECES;
        SteerVec2 next = steer_add(center, steer_scale(steer_vec2_from_angle(a), radius));
        segment(d, previous, next, color, layer);
        previous = next;
    }
}

static void draw_bounds(const SteerWorld *world, const SteerDebugDraw *d)
{
    SteerVec2 corners[4] = {
        {0.0, 0.0}, {world->def.width, 0.0}, {world->def.width, world->def.height}, {0.0, world->def.height}};
    polygon(d, corners, 4, STEER_DEBUG_COLOR_BOUNDS, STEER_DEBUG_LAYER_BOUNDS);
}

static void draw_flow_fields(const SteerWorld *world, const SteerDebugDraw *d)
{
    for (int i = 0; i < world->fields.count; i++) {
        const SteerFlowField *field = steer_pool_at(&world->fields, i);
        if (!field->header.alive) continue;
        double half = 0.4 * field->cell_size;
        for (int row = 0; row < field->rows; row++) {
            for (int col = 0; col < field->cols; col++) {
                SteerVec2 v = field->vectors[row * field->cols + col];
                SteerVec2 c = steer_add(field->origin, steer_vec2(col * field->cell_size, row * field->cell_size));
                SteerVec2 dir = steer_normalize(v);
                if (steer_length_sq(dir) == 0.0) {
                    point(d, c, 2.0, STEER_DEBUG_COLOR_FLOW, STEER_DEBUG_LAYER_FLOW_FIELDS);
                    continue;
                }
                arrow(d, steer_sub(c, steer_scale(dir, half)), steer_add(c, steer_scale(dir, half)),
                      STEER_DEBUG_COLOR_FLOW, STEER_DEBUG_LAYER_FLOW_FIELDS);
            }
        }
    }
}

static void draw_paths(const SteerWorld *world, const SteerDebugDraw *d)
{
    for (int i = 0; i < world->paths.count; i++) {
        const SteerPath *path = steer_pool_at(&world->paths, i);
        if (!path->header.alive) continue;
        const SteerDebugLayer layer = STEER_DEBUG_LAYER_PATHS;
        for (int k = 0; k + 1 < path->count; k++)
            segment(d, path->points[k], path->points[k + 1], STEER_DEBUG_COLOR_PATH, layer);
        if (path->loop && path->count > 2)
            segment(d, path->points[path->count - 1], path->points[0], STEER_DEBUG_COLOR_PATH, layer);
        for (int k = 0; k < path->count; k++) point(d, path->points[k], 6.0, STEER_DEBUG_COLOR_PATH, layer);
    }
}

static void draw_obstacles(const SteerWorld *world, const SteerDebugDraw *d)
{
    for (int i = 0; i < world->obstacles.count; i++) {
        const SteerObstacle *obstacle = steer_pool_at(&world->obstacles, i);
        if (!obstacle->header.alive) continue;
        if (d->draw_solid_circle)
            d->draw_solid_circle(obstacle->center, obstacle->radius, STEER_DEBUG_COLOR_OBSTACLE_FILL,
                                 STEER_DEBUG_LAYER_OBSTACLES, d->context);
        circle(d, obstacle->center, obstacle->radius, STEER_DEBUG_COLOR_OBSTACLE_EDGE, STEER_DEBUG_LAYER_OBSTACLES);
    }
}

static void draw_walls(const SteerWorld *world, const SteerDebugDraw *d)
{
    for (int i = 0; i < world->walls.count; i++) {
        const SteerWall *wall = steer_pool_at(&world->walls, i);
        if (!wall->header.alive) continue;
        segment(d, wall->a, wall->b, STEER_DEBUG_COLOR_WALL, STEER_DEBUG_LAYER_WALLS);
        SteerVec2 middle = steer_scale(steer_add(wall->a, wall->b), 0.5);
        arrow(d, middle, steer_add(middle, steer_scale(wall->normal, STEER_DEBUG_WALL_NORMAL_LENGTH)),
              STEER_DEBUG_COLOR_WALL_NORMAL, STEER_DEBUG_LAYER_WALL_NORMALS);
    }
}

static void draw_wander(const SteerDebugDraw *d, const SteerVehicle *v, const SteerBehaviourSlot *slot,
                        const SteerWanderParams *w, Pose pose)
{
    const SteerDebugLayer layer = STEER_DEBUG_LAYER_WANDER;
    if (w->leash == STEER_LEASH_ROAM) {
        SteerVec2 anchor = w->has_anchor ? w->anchor : v->spawn;
        circle(d, anchor, w->max_distance, STEER_DEBUG_COLOR_WANDER, layer);
        point(d, anchor, 4.0, STEER_DEBUG_COLOR_WANDER, layer);
        if (slot->state.evaluated) {
            segment(d, pose.position, slot->state.wander_target, STEER_DEBUG_COLOR_WANDER, layer);
            point(d, slot->state.wander_target, 6.0, STEER_DEBUG_COLOR_WANDER_TARGET, layer);
        }
        return;
    }
    /* The circle projected ahead of the vehicle and the target on it, in the vehicle's frame so
     * they follow the drawn (interpolated) pose. */
    SteerVec2 center = steer_add(pose.position, steer_scale(pose.heading, w->distance));
    circle(d, center, w->radius, STEER_DEBUG_COLOR_WANDER, layer);
    segment(d, pose.position, center, STEER_DEBUG_COLOR_WANDER, layer);
    if (steer_length_sq(slot->wander_local) > 0.0) {
        SteerVec2 target = steer_add(center, steer_rotate(slot->wander_local, pose.heading));
        segment(d, center, target, STEER_DEBUG_COLOR_WANDER_TARGET, layer);
        point(d, target, 6.0, STEER_DEBUG_COLOR_WANDER_TARGET, layer);
    }
    if (w->leash == STEER_LEASH_PULL) {
        SteerVec2 anchor = w->has_anchor ? w->anchor : v->spawn;
        circle(d, anchor, w->return_radius, STEER_DEBUG_COLOR_WANDER, layer);
        point(d, anchor, 4.0, STEER_DEBUG_COLOR_WANDER, layer);
    }
}

STEER_BEHAVIOUR_DRAW(wander)
{
    Pose pose = {STEER_NULL_ID, position, heading};
    draw_wander(d, v, slot, &slot->def.wander, pose);
}

/// Flock's wander part, while it has one.
STEER_BEHAVIOUR_DRAW(flock_wander)
{
    Pose pose = {STEER_NULL_ID, position, heading};
    if (slot->def.flock.wander > 0.0) draw_wander(d, v, slot, &slot->def.flock.wander_params, pose);
}

STEER_BEHAVIOUR_DRAW(detection_box)
{
    Pose pose = {STEER_NULL_ID, position, heading};
    double length =
        slot->detail.box_length > 0.0 ? slot->detail.box_length : slot->def.avoid_obstacles.detection_length;
    SteerVec2 local[4] = {{0.0, -v->radius}, {length, -v->radius}, {length, v->radius}, {0.0, v->radius}};
    SteerVec2 box[4];
    for (int k = 0; k < 4; k++) box[k] = steer_add(pose.position, steer_rotate(local[k], pose.heading));
    polygon(d, box, 4, STEER_DEBUG_COLOR_AVOIDANCE, STEER_DEBUG_LAYER_AVOIDANCE);
}

STEER_BEHAVIOUR_DRAW(feelers)
{
    Pose pose = {STEER_NULL_ID, position, heading};
    SteerVec2 directions[3];
    double lengths[3];
    steer_wall_feelers(pose.heading, v->radius, slot->def.avoid_walls.feeler_length, directions, lengths);
    for (int f = 0; f < 3; f++) {
        SteerVec2 end = steer_add(pose.position, steer_scale(directions[f], lengths[f]));
        segment(d, pose.position, end, STEER_DEBUG_COLOR_AVOIDANCE, STEER_DEBUG_LAYER_AVOIDANCE);
        point(d, end, 4.0, STEER_DEBUG_COLOR_AVOIDANCE, STEER_DEBUG_LAYER_AVOIDANCE);
    }
}

/// orca: the velocity the other behaviours asked for (faint), the safe one it chose instead, and a
/// dot where the velocity taken leads (each as where it would carry the vehicle in a second).
STEER_BEHAVIOUR_DRAW(orca)
{
    (void)heading;
    SteerVec2 preferred = steer_sub(slot->detail.feelers[0], v->position);
    SteerVec2 chosen = steer_sub(slot->detail.feelers[1], v->position);
    SteerVec2 taken = steer_sub(slot->detail.feelers[2], v->position);
    uint32_t faint = (STEER_DEBUG_COLOR_AVOIDANCE & 0xffffff00u) | 0x60u;
    segment(d, position, steer_add(position, preferred), faint, STEER_DEBUG_LAYER_AVOIDANCE);
    segment(d, position, steer_add(position, chosen), STEER_DEBUG_COLOR_AVOIDANCE, STEER_DEBUG_LAYER_AVOIDANCE);
    point(d, steer_add(position, taken), 4.0, STEER_DEBUG_COLOR_AVOIDANCE, STEER_DEBUG_LAYER_AVOIDANCE);
}

static void draw_neighbors(const SteerDebugDraw *d, const SteerVehicle *v, double view_angle, Pose pose)
{
    const SteerDebugLayer layer = STEER_DEBUG_LAYER_NEIGHBORS;
    if (v->neighbor_radius <= 0.0) return;
    if (view_angle >= 2.0 * STEER_PI) {
        circle(d, pose.position, v->neighbor_radius, STEER_DEBUG_COLOR_NEIGHBORS, layer);
        return;
    }
    double facing = steer_angle_of(pose.heading);
    double half = 0.5 * view_angle;
    SteerVec2 left = steer_add(pose.position, steer_scale(steer_vec2_from_angle(facing - half), v->neighbor_radius));
    SteerVec2 right = steer_add(pose.position, steer_scale(steer_vec2_from_angle(facing + half), v->neighbor_radius));
    segment(d, pose.position, left, STEER_DEBUG_COLOR_NEIGHBORS, layer);
    segment(d, pose.position, right, STEER_DEBUG_COLOR_NEIGHBORS, layer);
    arc(d, pose.position, v->neighbor_radius, facing - half, facing + half, STEER_DEBUG_COLOR_NEIGHBORS, layer);
}

static void draw_vehicle_overlays(const SteerDebugDraw *d, const SteerVehicle *v, const SteerVehicleCold *cold,
                                  Pose pose)
{
    unsigned flags = d->flags;
    if (flags & STEER_DEBUG_DRAW_NEIGHBORS) draw_neighbors(d, v, cold->view_angle, pose);
    for (int i = 0; i < v->behaviour_count; i++) {
        const SteerBehaviourSlot *slot = &v->behaviours[i];
        if (slot->lost) continue;
        const SteerBehaviourRow *row = &steer_behaviour_rows[slot->def.type];
        if (row->debug_draw && (flags & row->debug_flags)) row->debug_draw(d, v, slot, pose.position, pose.heading);
        /* Only behaviours that pushed this step: an evade whose threat is out of range has a
         * target too, and a line to every distant hunter would bury the picture. */
        if ((flags & STEER_DEBUG_DRAW_TARGETS) && slot->state.evaluated && row->draws_target &&
            steer_length_sq(slot->state.force) > 0.0) {
            segment(d, pose.position, slot->state.target, STEER_DEBUG_COLOR_TARGET, STEER_DEBUG_LAYER_TARGETS);
            point(d, slot->state.target, 5.0, STEER_DEBUG_COLOR_TARGET, STEER_DEBUG_LAYER_TARGETS);
        }
    }
    if (flags & STEER_DEBUG_DRAW_FORCES) {
        arrow(d, pose.position, steer_add(pose.position, steer_scale(v->velocity, STEER_DEBUG_VELOCITY_SCALE)),
              STEER_DEBUG_COLOR_VELOCITY, STEER_DEBUG_LAYER_FORCES);
        arrow(d, pose.position, steer_add(pose.position, steer_scale(v->force, STEER_DEBUG_FORCE_SCALE)),
              STEER_DEBUG_COLOR_FORCE, STEER_DEBUG_LAYER_FORCES);
    }
}

/* ---- Senses ---------------------------------------------------------------------------------- */

/// A sight cone (two edges and an arc) or, all round, a circle.
static void draw_cone(const SteerDebugDraw *d, Pose pose, double range, double fov, uint32_t color,
                      SteerDebugLayer layer)
{
    if (fov >= 2.0 * STEER_PI) {
        circle(d, pose.position, range, color, layer);
        return;
    }
    double facing = steer_angle_of(pose.heading), half = 0.5 * fov;
    segment(d, pose.position, steer_add(pose.position, steer_scale(steer_vec2_from_angle(facing - half), range)), color,
            layer);
    segment(d, pose.position, steer_add(pose.position, steer_scale(steer_vec2_from_angle(facing + half), range)), color,
            layer);
    arc(d, pose.position, range, facing - half, facing + half, color, layer);
}

/// Rays from a sighted vehicle to every vehicle in its sense's cone and range (of its kinds): the
/// clear colour where sight passes, the blocked colour where a wall or obstacle stops it - the
/// very test the step makes.
static void draw_rays(const SteerWorld *world, const SteerDebugDraw *d, const SteerVehicle *v, int slot,
                      const SteerSense *s, Pose pose)
{
    const SteerGrid *g = steer_world_query_grid(world); /* (a cache: rebuilt if anything moved) */
    if (s->def.obstacles_block) steer_world_obstacle_grid(world);
    if (s->def.walls_block) steer_world_wall_grid(world);
    double range_sq = s->def.range * s->def.range;
    SteerVec2 local = steer_grid_local_point(g, v->position);
    SteerGridCursor cursor;
    SteerGridRun run;
    steer_grid_cursor_begin(&cursor, g, local.x, local.y, s->def.range);
    while (steer_grid_cursor_next(&cursor, &run)) {
        for (int k = run.begin; k < run.end; k++) {
            const SteerGridEntry *e = &g->entry[k];
            if (e->slot == slot || (g->touched_count > 0 && g->link[e->slot].detached)) continue;
            const SteerVehicle *other = steer_pool_at(&world->vehicles, e->slot);
            if (s->def.kinds && !((s->def.kinds >> other->kind) & 1u)) continue;
            SteerVec2 offset = steer_world_offset(world, v->position, other->position);
            double d2 = steer_length_sq(offset);
            if (d2 > range_sq) continue;
            if (s->cos_half >= -1.0 && d2 > 0.0 && steer_dot(offset, v->heading) < s->cos_half * sqrt(d2)) continue;
            bool clear = steer_sight_clear(world, v->position, offset, s->def.walls_block, s->def.obstacles_block);
            segment(d, pose.position, steer_add(pose.position, offset),
                    clear ? STEER_DEBUG_COLOR_RAY_CLEAR : STEER_DEBUG_COLOR_RAY_BLOCKED, STEER_DEBUG_LAYER_SENSE_RAYS);
        }
    }
}

/// A vehicle's senses as the flags ask: cones and hearing circles with a line to each memory
/// (SENSES), rays (SENSE_RAYS), the sounds its hearing heard in the last step (`sounds`).
static void draw_vehicle_senses(const SteerWorld *world, const SteerDebugDraw *d, int slot, const SteerVehicle *v,
                                Pose pose, bool sounds)
{
    if (slot >= world->sensor_capacity) return;
    const SteerSensor *sensor = &world->sensors[slot];
    unsigned flags = d->flags;
    for (int i = 0; i < sensor->sense_count; i++) {
        const SteerSense *s = &sensor->senses[i];
        bool sight = s->def.type == STEER_SENSE_SIGHT;
        if (flags & STEER_DEBUG_DRAW_SENSES) {
            /* (a hearing range left at its default, STEER_MAX_LENGTH, is no circle to draw) */
            if (sight || s->def.range < 1e6)
                draw_cone(d, pose, s->def.range, sight ? s->def.fov : 2.0 * STEER_PI, STEER_DEBUG_COLOR_SENSE,
                          STEER_DEBUG_LAYER_SENSES);
            bool check = s->removals != world->removals;
            for (int m = 0; m < s->memory_count; m++) {
                const SteerSenseMemory *memory = &s->memories[m];
                if (check && !steer_vehicle_lookup(world, memory->other)) continue;
                SteerVec2 at = steer_add(pose.position, steer_world_offset(world, pose.position, memory->position));
                uint32_t color = memory->sensed_now ? STEER_DEBUG_COLOR_SENSED : STEER_DEBUG_COLOR_REMEMBERED;
                segment(d, pose.position, at, color, STEER_DEBUG_LAYER_SENSES);
                point(d, at, memory->sensed_now ? 4.0 : 6.0, color, STEER_DEBUG_LAYER_SENSES);
            }
        }
        if ((flags & STEER_DEBUG_DRAW_SENSE_RAYS) && sight) draw_rays(world, d, v, slot, s, pose);
        if (sounds && (flags & STEER_DEBUG_DRAW_SOUNDS) && !sight)
            for (int n = s->note_split; n < s->note_count; n++) /* (the sounds heard: kept whatever the mask) */
                if (s->notes[n].events & STEER_NOTE_HEARD) {
                    circle(d, s->notes[n].position, s->notes[n].radius, STEER_DEBUG_COLOR_SOUND,
                           STEER_DEBUG_LAYER_SOUNDS);
                    point(d, s->notes[n].position, 5.0, STEER_DEBUG_COLOR_SOUND, STEER_DEBUG_LAYER_SOUNDS);
                }
    }
}

static void draw_sounds(const SteerWorld *world, const SteerDebugDraw *d)
{
    for (int i = 0; i < world->sound_count; i++) {
        const SteerSound *sound = &world->sounds[i];
        if (sound->step != world->step_count) continue; /* heard in the last step only */
        circle(d, sound->def.position, sound->def.radius, STEER_DEBUG_COLOR_SOUND, STEER_DEBUG_LAYER_SOUNDS);
        point(d, sound->def.position, 5.0, STEER_DEBUG_COLOR_SOUND, STEER_DEBUG_LAYER_SOUNDS);
    }
}

static Pose vehicle_pose(const SteerWorld *world, const SteerDebugDraw *d, int slot_index, const SteerVehicle *v)
{
    Pose pose = {{(uint32_t)slot_index + 1u, world->tag, v->header.generation}, v->position, v->heading};
    SteerVec2 position, heading;
    if (d->vehicle_pose && d->vehicle_pose(pose.id, &position, &heading, d->context)) {
        pose.position = position;
        pose.heading = heading;
    }
    return pose;
}

void steer_world_debug_draw(const SteerWorld *world, const SteerDebugDraw *draw)
{
    if (!draw) return;
    unsigned flags = draw->flags;
    if (flags & STEER_DEBUG_DRAW_BOUNDS) draw_bounds(world, draw);
    if (flags & STEER_DEBUG_DRAW_FLOW_FIELDS) draw_flow_fields(world, draw);
    if (flags & STEER_DEBUG_DRAW_NAVIGATION) steer_nav_debug_draw_maps(world, draw); /* under the shapes: nav.c */
    if (flags & STEER_DEBUG_DRAW_PATHS) draw_paths(world, draw);
    if (flags & STEER_DEBUG_DRAW_OBSTACLES) draw_obstacles(world, draw);
    if (flags & STEER_DEBUG_DRAW_WALLS) draw_walls(world, draw);

    const unsigned overlays = STEER_DEBUG_DRAW_WANDER | STEER_DEBUG_DRAW_AVOIDANCE | STEER_DEBUG_DRAW_NEIGHBORS |
                              STEER_DEBUG_DRAW_FORCES | STEER_DEBUG_DRAW_TARGETS;
    const unsigned senses = STEER_DEBUG_DRAW_SENSES | STEER_DEBUG_DRAW_SENSE_RAYS;
    if (flags & STEER_DEBUG_DRAW_SOUNDS) draw_sounds(world, draw);
    if (flags & (overlays | senses)) {
        for (int i = 0; i < world->order_count; i++) {
            if (world->order[i] < 0) continue; /* removed since the last step */
            const SteerVehicle *v = steer_pool_at(&world->vehicles, world->order[i]);
            Pose pose = vehicle_pose(world, draw, world->order[i], v);
            if (flags & overlays) draw_vehicle_overlays(draw, v, steer_vehicle_cold(world, v), pose);
            if (flags & senses) draw_vehicle_senses(world, draw, world->order[i], v, pose, false);
        }
    }
    if (flags & STEER_DEBUG_DRAW_TARGETS) steer_nav_debug_draw(world, draw);          /* planned paths: nav.c */
    if (flags & STEER_DEBUG_DRAW_NAVIGATION) steer_nav_debug_draw_plans(world, draw); /* ... and replaced ones */
    if ((flags & STEER_DEBUG_DRAW_VEHICLES) && draw->draw_solid_polygon) {
        for (int i = 0; i < world->order_count; i++) {
            if (world->order[i] < 0) continue;
            const SteerVehicle *v = steer_pool_at(&world->vehicles, world->order[i]);
            Pose pose = vehicle_pose(world, draw, world->order[i], v);
            uint32_t color = steer_vehicle_cold(world, v)->color;
            if (color == 0)
                color = draw->kind_color ? draw->kind_color(v->kind, draw->context) : steer_debug_kind_color(v->kind);
            SteerVec2 shape[3];
            steer_debug_vehicle_shape(pose.position, pose.heading, v->radius, shape);
            draw->draw_solid_polygon(shape, 3, color, STEER_DEBUG_LAYER_VEHICLES, draw->context);
        }
    }
}

void steer_vehicle_debug_draw_senses(const SteerWorld *world, SteerVehicleId id, const SteerDebugDraw *draw)
{
    const SteerVehicle *v = draw ? steer_vehicle_lookup(world, id) : NULL;
    if (!v) return;
    int slot = steer_vehicle_slot(world, v);
    draw_vehicle_senses(world, draw, slot, v, vehicle_pose(world, draw, slot, v), true);
}

void steer_vehicle_debug_draw_orca(const SteerWorld *world, SteerVehicleId id, const SteerDebugDraw *draw)
{
    const SteerVehicle *v = draw ? steer_vehicle_lookup(world, id) : NULL;
    const SteerOrcaWatch *watch = v ? steer_orca_watched(world, v) : NULL;
    if (!watch) return;
    const SteerDebugLayer layer = STEER_DEBUG_LAYER_AVOIDANCE;
    Pose pose = vehicle_pose(world, draw, steer_vehicle_slot(world, v), v);
    /* Velocities are drawn where they lead in a second, as the orca overlay draws the preferred and
     * chosen ones: velocity u at pose.position + u. */
    int count = steer_orca_watch_count(watch);
    SteerVec2 p0, n0;
    int kind0;
    bool bound0;
    double speed;
    if (steer_orca_watch_line(watch, 0, &p0, &n0, &kind0, &bound0, &speed))
        circle(draw, pose.position, speed, (STEER_DEBUG_COLOR_HALF_PLANE & 0xffffff00u) | 0x40u, layer);
    for (int pass = 0; pass < 2; pass++) { /* the bound one last, over the others */
        for (int i = 0; i < count; i++) {
            SteerVec2 p, n;
            int kind;
            bool bound;
            double limit;
            steer_orca_watch_line(watch, i, &p, &n, &kind, &bound, &limit);
            if (bound != (pass == 1)) continue;
            /* the boundary p + t·d inside the max_speed disc */
            SteerVec2 d = steer_perp(n);
            double b = steer_dot(p, d);
            double disc = b * b + limit * limit - steer_length_sq(p);
            if (!(disc > 0.0)) continue;
            double root = sqrt(disc);
            SteerVec2 a = steer_add(p, steer_scale(d, -b - root)), e = steer_add(p, steer_scale(d, -b + root));
            uint32_t color = bound                         ? STEER_DEBUG_COLOR_BOUND
                             : kind == STEER_ORCA_WALL     ? STEER_DEBUG_COLOR_WALL_NORMAL
                             : kind == STEER_ORCA_OBSTACLE ? STEER_DEBUG_COLOR_OBSTACLE_EDGE
                                                           : STEER_DEBUG_COLOR_HALF_PLANE;
            segment(draw, steer_add(pose.position, a), steer_add(pose.position, e), color, layer);
            /* ticks on the side it rules out, a tenth of max_speed long */
            SteerVec2 tick = steer_scale(n, -0.1 * limit);
            for (int k = 1; k < 6; k++) {
                SteerVec2 at = steer_add(pose.position, steer_add(a, steer_scale(steer_sub(e, a), k / 6.0)));
                segment(draw, at, steer_add(at, tick), color, layer);
            }
        }
    }
}
