---@meta steer
-- Annotations for lua-language-server: the whole API of the `steer` module (bindings/). Kept in
-- step with the C code by tests/lua/types_spec.lua, which compares the ---@field and method names
-- of each steer.* class below with what the module exposes.
-- Units: positions in units (1 unit = 1 pixel at zoom 1, y points down), velocities in units/s,
-- forces in mass*units/s^2, angles in radians, times in seconds.

---@class steer
---@field version string "0.1.0"
---@field behaviours string[] every behaviour name, in the core's order
---@field ffi boolean true when the module runs its hot members through LuaJIT's FFI (docs/love.md); false under Lua 5.4 and with STEER_FFI=0
local steer = {}

---@alias steer.Edges "wrap"|"contain"|"none"
---@alias steer.Combine "weighted"|"priority"|"dither"
---@alias steer.Color {[1]: integer, [2]: integer, [3]: integer, [4]: integer?} r, g, b[, a] in 0-255
---@alias steer.Target steer.Vehicle|number a vehicle, or x followed by y
---@alias steer.BehaviourName "seek"|"flee"|"arrive"|"pursue"|"evade"|"offset_pursue"|"interpose"|"hide"|"wander"|"follow"|"avoid_obstacles"|"avoid_walls"|"contain"|"follow_flow"|"separate"|"align"|"cohere"|"flock"|"follow_leader"|"queue"|"avoid_collisions"|"navigate"|"orca"

---@class steer.WorldOptions
---@field width number? units, > 0 (default 800)
---@field height number? units, > 0 (default 600)
---@field edges steer.Edges? default "none"
---@field wrap boolean? true is shorthand for edges = "wrap"
---@field dt number? fixed physics step in s, (0, 1] (default 1/60)
---@field seed integer? >= 0, seeds the world's PCG32 (default 1)
---@field think_hz number? how often each brain thinks in w:think(), >= 0, 0 = never (default 10)
---@field threads integer? threads the step runs on, 1..64 (default 1); the same bits for any count

--- Creates a world.
---@param options steer.WorldOptions?
---@return steer.World
function steer.world(options) end

--- A file's modification time (seconds since the epoch, with a fraction), size in bytes and what
--- the path is, or nil and the system's message. steer.hot polls it: plain Lua has no stat.
---@param path string
---@return number? mtime
---@return integer|string size_or_message
---@return "file"|"folder"|"fifo"|"device"|"socket"|"other"|nil kind
function steer.file_mtime(path) end

--- Lua's pairs, walking t in an order that is the same in every Lua state that ran the same code:
--- numbers by value, strings by their bytes, false, true, steer handles (by world, then v.id), then
--- other objects in the order walks first met them. __pairs is honoured. The `steer` program's
--- global pairs (a replay walks tables as the recorded run did).
---@generic K, V
---@param t table<K, V>
---@return fun(state: any, key: K?): K, V
---@return any state
---@return nil
---@return any closing
function steer.pairs(t) end

--- Lua's next in steer.pairs' order: next(t) is the first key, next(t, k) the one after k (a key
--- assigned nil during the walk included). The `steer` program's global next.
---@generic K, V
---@param t table<K, V>
---@param key K?
---@return K?
---@return V
function steer.next(t, key) end

---@class steer.World
---@field time number simulated seconds since creation (read-only)
---@field dt number the fixed step, s (writable: (0, 1])
---@field width number units (read-only)
---@field height number units (read-only)
---@field step_count integer steps taken (read-only)
---@field edges steer.Edges (read-only)
---@field think_hz number how often each brain thinks, Hz (writable: >= 0, 0 = never)
local World = {}

--- Advances the simulation by n fixed steps (default 1); returns the world, so calls chain.
---@param n integer?
---@return steer.World
function World:step(n) end

---@class steer.BrainTable a brain: think, or event handlers, or both (docs/lua-api.md#brains)
---@field think (fun(v: steer.Vehicle, dt: number))? called at think_hz, staggered
---@field sensed (fun(v: steer.Vehicle, sense: string, other: steer.Vehicle))? the sense senses other now, and did not before
---@field lost (fun(v: steer.Vehicle, sense: string, other: steer.Vehicle?))? it sensed other and does not any more (still remembered)
---@field forgot (fun(v: steer.Vehicle, sense: string, other: steer.Vehicle?))? the memory of other expired (other is nil when it was removed)
---@field heard (fun(v: steer.Vehicle, sense: string, tag: string, x: number, y: number, from: steer.Vehicle?))? a sound: its tag, where it was, who made it (nil: the world)
---@field timer (fun(v: steer.Vehicle))? v:wake_in's time has come

---@alias steer.Brain steer.BrainTable|fun(v: steer.Vehicle, dt: number)

--- Delivers the sense events of the steps since the last call to the brains that handle them
--- (sensed, lost, forgot, heard, timer: by vehicle in creation order, its timer first, then its
--- senses in the order they were added, then the others' creation order), then runs the brains
--- whose turn it is in the coming step, as the steer program does: call it once per step, before
--- w:step(). Handlers run whatever think_hz is. Each vehicle thinks about think_hz times per simulated second
--- (staggered over the steps) with dt = simulated time since it last thought. A brain that raises
--- an error pauses that vehicle only (v.brain_error holds the message): on_error(v, message,
--- traceback) is called for each, or, without it, a Lua warning is emitted (lua5.4 -W shows them).
--- An erring event handler pauses its vehicle the same way.
---@param on_error fun(v: steer.Vehicle, message: string, traceback: string)?
---@return integer failed brains that raised an error in this call
function World:think(on_error) end

--- Lets every vehicle paused by a brain error think again (clears v.brain_error).
---@return integer resumed how many were paused
function World:resume_brains() end

--- Like math.random on the world's own PRNG: () in [0, 1), (m) in [1, m], (m, n) in [m, n].
---@param m integer?
---@param n integer?
---@return number
function World:random(m, n) end

---@class steer.SpawnOptions
---@field kind string? interned per world (at most 64 kinds); default "vehicle"
---@field x number? units (default: the middle of the world, width / 2)
---@field y number? units (default: the middle of the world, height / 2)
---@field vx number? units/s (default 0)
---@field vy number? units/s (default 0)
---@field heading number? radians (default 0; a non-zero velocity wins)
---@field mass number? > 0 (default 1)
---@field max_speed number? units/s, > 0 (default 100)
---@field max_force number? mass*units/s^2, > 0 (default 300)
---@field max_turn_rate number? radians/s, >= 0, 0 = unlimited (default 0)
---@field radius number? units, >= 0 (default 8)
---@field response_time number? s, > 0 (default 0.25)
---@field neighbor_radius number? units, >= 0 (default 50)
---@field view_angle number? radians in (0, 2*pi] (default 2*pi)
---@field flock_with string[]? kinds group behaviours consider (default: its own kind)
---@field color steer.Color|integer? default nil: the kind's colour
---@field combine steer.Combine? default "weighted"
---@field data table? v.data
---@field brain steer.Brain? v.brain
---@field state string? v.state

--- Creates a vehicle.
---@param options steer.SpawnOptions?
---@return steer.Vehicle
function World:spawn(options) end

--- Removes a vehicle (its data, brain and state go with it) or a shape; returns the world.
---@param handle steer.Vehicle|steer.Obstacle|steer.Wall|steer.Path|steer.FlowField
---@return steer.World
function World:remove(handle) end

--- Every live vehicle (of one kind), in id order.
---@param kind string?
---@return steer.Vehicle[]
function World:vehicles(kind) end

--- How many live vehicles (of one kind).
---@param kind string?
---@return integer
function World:count(kind) end

--- The nearest vehicle (of a kind, within range) to a vehicle (itself excluded) or to x, y.
--- Called as closest(v, kind, range) or closest(x, y, kind, range); ties go to the older one.
---@param v_or_x steer.Vehicle|number
---@param ... any kind (string?), range (number?) -- after x, y when a point is given
---@return steer.Vehicle?
function World:closest(v_or_x, ...) end

--- The vehicles whose centre is within radius of v's centre (v excluded), in id order: a plain
--- distance query all around v (across the edges of a wrapping world). It ignores v's view_angle,
--- neighbor_radius and flock_with, which only shape what v's group behaviours see.
---@param v steer.Vehicle
---@param radius number
---@param kind string?
---@return steer.Vehicle[]
function World:neighbors(v, radius, kind) end

---@class steer.ObstacleOptions
---@field x number
---@field y number
---@field radius number? > 0 (or r)
---@field r number? same as radius

---@param options steer.ObstacleOptions
---@return steer.Obstacle
function World:obstacle(options) end

---@class steer.WallOptions
---@field x1 number
---@field y1 number
---@field x2 number
---@field y2 number

---@param options steer.WallOptions
---@return steer.Wall
function World:wall(options) end

--- A polyline: world:path{{x, y}, {x, y}, ..., loop = false}
---@param points table array of {x, y} plus an optional loop = boolean
---@return steer.Path
function World:path(points) end

---@class steer.FlowFieldOptions
---@field x number? origin (default 0)
---@field y number? origin (default 0)
---@field cell_size number > 0
---@field cols integer >= 1
---@field rows integer >= 1
---@field vectors number[][]? cols*rows {dx, dy}, row-major (default all zero)

---@param options steer.FlowFieldOptions
---@return steer.FlowField
function World:flow_field(options) end

---@class steer.FlowFieldToOptions
---@field x number the goal
---@field y number
---@field radius number? >= 0, clearance kept from walls and obstacles (default 0)
---@field cell_size number? > 0 (default 8)

--- A flow field over the world's bounds leading to (x, y) around walls and obstacles (for
--- v:follow_flow), computed again when a wall or obstacle is added or removed.
---@param options steer.FlowFieldToOptions
---@return steer.FlowField
function World:flow_field_to(options) end

---@class steer.PathQueryOptions
---@field radius number? >= 0, the clearance the path keeps from walls, obstacles and bounds (default 0)
---@field cell_size number? >= 1, the navigation map's grid (default 8)

--- A smoothed path from (x1, y1) to (x2, y2) around walls and obstacles: its points {{x, y}, ...}
--- (start and goal included) and its length; or nil and the reason: "unreachable", "start inside
--- geometry", "goal inside geometry", "start outside the map", "goal outside the map"; in a wrapping
--- world, whose edges paths never cross: "unreachable without crossing the wrapping edges", "start
--- too near a wrapping edge", "goal too near a wrapping edge".
---@param options steer.PathQueryOptions?
---@return number[][]|nil points
---@return number|string length_or_reason
function World:find_path(x1, y1, x2, y2, options) end

---@class steer.NavMap
---@field cols integer
---@field rows integer
---@field cell_size number
---@field blocked string one byte a cell, row by row: "\1" where a path of that radius may not go

--- The navigation map paths of this radius and cell size use (for overlays).
---@param options steer.PathQueryOptions?
---@return steer.NavMap
function World:nav_map(options) end

---@return steer.Obstacle[]
function World:obstacles() end

---@return steer.Wall[]
function World:walls() end

---@class steer.EmitOptions
---@field x number where the sound is (w:emit only)
---@field y number
---@field radius number? units, > 0: how far it carries (default 100)
---@field tag string? what it is, a name interned per world (at most 32; default "sound")

--- A sound: hearing senses within its radius (and their range) hear it in the next step, through
--- walls. Returns the world.
---@param options steer.EmitOptions
---@return steer.World
function World:emit(options) end

---@class steer.LineOfSightOptions
---@field walls boolean? walls block (default true)
---@field obstacles boolean? obstacles block (default true)

--- Whether the segment between two points (each a vehicle or x, y; the shortest wrapped one in a
--- wrapping world) touches no wall and no obstacle: the test sight makes.
---@param ... any x1, y1 (or a vehicle), x2, y2 (or a vehicle), options (steer.LineOfSightOptions?)
---@return boolean
function World:line_of_sight(...) end

--- Every vehicle's senses make the events its brain handles (v:listen's choices go): for handlers
--- added to or removed from brain tables after they were set. The program and steer.hot run it
--- after a reload. Returns the world.
---@return steer.World
function World:listen_to_brains() end

--- The kind names spawned so far, in kind-number order.
---@return string[]
function World:kinds() end

--- Destroys the world now (also on garbage collection and at the end of a <close> variable).
--- Returns nothing: there is nothing left to chain to.
function World:close() end

---@class steer.DebugDraw
---@field line (fun(x1: number, y1: number, x2: number, y2: number, r: number, g: number, b: number, a: number))?
---@field circle (fun(x: number, y: number, radius: number, r: number, g: number, b: number, a: number))? outline
---@field solid_circle (fun(x: number, y: number, radius: number, r: number, g: number, b: number, a: number))?
---@field polygon (fun(points: number[], r: number, g: number, b: number, a: number))? outline; points {x1, y1, x2, y2, ...}
---@field solid_polygon (fun(points: number[], r: number, g: number, b: number, a: number))? filled, convex
---@field point (fun(x: number, y: number, size: number, r: number, g: number, b: number, a: number))? size in pixels
---@field layers (string|string[])? vehicles, obstacles, walls, paths, bounds, wander, avoidance, neighbors, forces, targets, flow_fields, world, all (default: world, wander, avoidance)

--- The world as the program draws it (its overlays included), as calls to these functions, in
--- world coordinates with colours r, g, b, a in [0, 1]. A function not given is skipped.
---@param callbacks steer.DebugDraw
---@return steer.World
function World:debug_draw(callbacks) end

---@class steer.Vehicle
---@field x number units (read-only: set_position)
---@field y number units (read-only)
---@field vx number units/s (read-only: set_velocity)
---@field vy number units/s (read-only)
---@field speed number units/s (read-only)
---@field heading number radians (read-only: set_heading)
---@field hx number unit heading vector (read-only)
---@field hy number (read-only)
---@field id integer serial, never reused (read-only)
---@field kind string (read-only)
---@field force_x number combined force of the last step (read-only)
---@field force_y number (read-only)
---@field world steer.World (read-only)
---@field max_speed number units/s, > 0
---@field max_force number > 0
---@field mass number > 0
---@field radius number units, >= 0
---@field max_turn_rate number radians/s, >= 0 (0 = unlimited)
---@field response_time number s, > 0
---@field neighbor_radius number units, >= 0
---@field view_angle number radians in (0, 2*pi]
---@field color steer.Color? nil = the kind's colour
---@field combine steer.Combine
---@field flock_with string[]? nil = its own kind
---@field data table the script's table for this vehicle (created on first use)
---@field brain steer.Brain? a table with think(v, dt), or a function(v, dt); checked when set; setting it resumes a paused brain
---@field brain_error string? why its brain is paused (file:line: message), nil while it thinks (read-only)
---@field state string? the current state's name (fsm.lua)
local Vehicle = {}

---@class steer.BehaviourOptions
---@field weight number? >= 0 (default 1)
---@field priority integer? smaller is considered first (priority and dither combination)
---@field probability number? in [0, 1]: dither combination

---@class steer.FleeOptions: steer.BehaviourOptions
---@field panic_distance number? units, 0 = always (default 0)
---@class steer.ArriveOptions: steer.BehaviourOptions
---@field slowing_radius number? units (default 50)
---@class steer.EvadeOptions: steer.BehaviourOptions
---@field threat_range number? units, 0 = always (default 0)
---@class steer.OffsetPursueOptions: steer.BehaviourOptions
---@field offset number[]? {ahead, side} in the leader's frame (default {0, 0})
---@field slowing_radius number? (default 20)
---@class steer.InterposeOptions: steer.BehaviourOptions
---@field slowing_radius number? (default 20)
---@class steer.HideOptions: steer.BehaviourOptions
---@field distance number? kept from the obstacle's edge (default 20)
---@field slowing_radius number? (default 20)
---@class steer.WanderOptions: steer.BehaviourOptions
---@field radius number? of the wander circle (default 30)
---@field distance number? of the circle ahead (default 60)
---@field jitter number? units/s (default 80)
---@field leash "none"|"pull"|"roam"? (default "none")
---@field anchor number[]? {x, y} (default: the spawn point)
---@field return_radius number? pull: (default 100)
---@field max_distance number? roam: (default 150)
---@field roam_rate number? roam: 1/s (default 0.25)
---@class steer.FollowOptions: steer.BehaviourOptions
---@field waypoint_radius number? (default 10)
---@field slowing_radius number? at the end of an open path (default 50)
---@class steer.AvoidObstaclesOptions: steer.BehaviourOptions
---@field detection_length number? > 0 (default 50)
---@field braking number? in [0, 1] (default 0.2)
---@class steer.AvoidWallsOptions: steer.BehaviourOptions
---@field feeler_length number? > 0 (default 50)
---@class steer.ContainOptions: steer.BehaviourOptions
---@field margin number? > 0 (default 50)
---@class steer.FollowFlowOptions: steer.BehaviourOptions
---@field lookahead number? s (default 0)
---@class steer.SeparateOptions: steer.BehaviourOptions
---@field comfort_distance number? (default 0)
---@field comfort_multiplier number? >= 1 (default 1)
---@class steer.FlockOptions: steer.BehaviourOptions
---@field separation number? weight (default 1.5)
---@field alignment number? weight (default 1)
---@field cohesion number? weight (default 1)
---@field wander number? weight (default 0.3)
---@field wander_radius number? (default 30)
---@field wander_distance number? (default 60)
---@field wander_jitter number? (default 80)
---@class steer.FollowLeaderOptions: steer.BehaviourOptions
---@field behind number? (default 30)
---@field sight_radius number? (default 30)
---@field slowing_radius number? (default 30)
---@field separation number? weight of keeping apart from other followers and the leader (default 1)
---@class steer.QueueOptions: steer.BehaviourOptions
---@field ahead number? (default 30)
---@field radius number? (default 15)
---@field braking number? in [0, 1] (default 0.8)
---@class steer.AvoidCollisionsOptions: steer.BehaviourOptions
---@field horizon number? s, > 0 (default 1)
---@class steer.NavigateOptions: steer.BehaviourOptions
---@field radius number? clearance kept from walls, obstacles and bounds; 0 = the vehicle's radius (default 0)
---@field cell_size number? > 0, the navigation map's grid (default 8)
---@field waypoint_radius number? a corner of the path counts as passed within this (default 12)
---@field slowing_radius number? arrive at the end (default 50)
---@field replan_distance number? plan again when the target is this far from the path's end (default 32)
---@class steer.NavigateTarget: steer.NavigateOptions
---@field x number? the point to reach (with y)
---@field y number?
---@field target steer.Vehicle? or the vehicle to reach

--- Reciprocal velocity avoidance (ORCA): a post-process of the velocity, not a force.
---@class steer.OrcaOptions: steer.BehaviourOptions
---@field horizon number? s, > 0: other vehicles are avoided this far ahead (default 2)
---@field obstacle_horizon number? s, > 0: obstacles and walls (default 1)
---@field max_neighbors integer? the nearest this many vehicles, 1..64 (default 10)
---@field range number? units: how far it looks for vehicles; 0: its neighbor_radius (default 0)
---@field layer integer? 0..15: its layer (default 0)
---@field avoids integer? bit mask of the layers it avoids, 0..65535 (default 65535)
---@field precedence integer? 0..255: of two that avoid each other, the lower gives way (default 0)
---@field heading_smoothing number? s: how slowly the heading follows the velocity; 0: at once (default 0.25)

-- Every behaviour method switches the behaviour on, or updates it when it is on (unspecified
-- options keep their current values; internal state such as the wander target is kept), and
-- returns the vehicle. Targets are positional: a vehicle, or x, y.

---@param target steer.Target
---@param ... any y when target is x; then options
---@return steer.Vehicle
function Vehicle:seek(target, ...) end
---@param target steer.Target
---@param ... any y when target is x; then steer.FleeOptions
---@return steer.Vehicle
function Vehicle:flee(target, ...) end
---@param target steer.Target
---@param ... any y when target is x; then steer.ArriveOptions
---@return steer.Vehicle
function Vehicle:arrive(target, ...) end
---@param target steer.Vehicle
---@param options steer.BehaviourOptions?
---@return steer.Vehicle
function Vehicle:pursue(target, options) end
---@param target steer.Vehicle
---@param options steer.EvadeOptions?
---@return steer.Vehicle
function Vehicle:evade(target, options) end
---@param leader steer.Vehicle
---@param options steer.OffsetPursueOptions?
---@return steer.Vehicle
function Vehicle:offset_pursue(leader, options) end
---@param a steer.Target
---@param ... any (y,) b (vehicle or x, y), then steer.InterposeOptions
---@return steer.Vehicle
function Vehicle:interpose(a, ...) end
---@param hunter steer.Target
---@param ... any y when hunter is x; then steer.HideOptions
---@return steer.Vehicle
function Vehicle:hide(hunter, ...) end
---@param options steer.WanderOptions?
---@return steer.Vehicle
function Vehicle:wander(options) end
---@param path steer.Path
---@param options steer.FollowOptions?
---@return steer.Vehicle
function Vehicle:follow(path, options) end
---@param options steer.AvoidObstaclesOptions?
---@return steer.Vehicle
function Vehicle:avoid_obstacles(options) end
---@param options steer.AvoidWallsOptions?
---@return steer.Vehicle
function Vehicle:avoid_walls(options) end
---@param options steer.ContainOptions?
---@return steer.Vehicle
function Vehicle:contain(options) end
---@param field steer.FlowField
---@param options steer.FollowFlowOptions?
---@return steer.Vehicle
function Vehicle:follow_flow(field, options) end
---@param options steer.SeparateOptions?
---@return steer.Vehicle
function Vehicle:separate(options) end
---@param options steer.BehaviourOptions?
---@return steer.Vehicle
function Vehicle:align(options) end
---@param options steer.BehaviourOptions?
---@return steer.Vehicle
function Vehicle:cohere(options) end
---@param options steer.FlockOptions?
---@return steer.Vehicle
function Vehicle:flock(options) end
---@param leader steer.Vehicle
---@param options steer.FollowLeaderOptions?
---@return steer.Vehicle
function Vehicle:follow_leader(leader, options) end
---@param options steer.QueueOptions?
---@return steer.Vehicle
function Vehicle:queue(options) end
---@param options steer.AvoidCollisionsOptions?
---@return steer.Vehicle
function Vehicle:avoid_collisions(options) end
--- Plans a path around the walls and obstacles and follows it (arriving at the end), planning again
--- when the target moves past replan_distance or the way is blocked: v:navigate{x =, y =, ...},
--- v:navigate{target = other, ...}, or positionally v:navigate(x, y, {...}) / v:navigate(other, {...}).
---@param target steer.NavigateTarget|steer.Vehicle|number
---@param ... any y and options, when target is x or a vehicle
---@return steer.Vehicle
function Vehicle:navigate(target, ...) end

--- The path navigate follows ({} without one), its state ("none", "planning", "following",
--- "arrived", "unreachable") and the 1-based index of the point it steers to (0 without a path).
---@return number[][] points
---@return string state
---@return integer waypoint
function Vehicle:nav_path() end

---@param options steer.OrcaOptions?
---@return steer.Vehicle
function Vehicle:orca(options) end

--- Switches the named behaviours off, or all of them when none is named; returns the vehicle.
---@param ... steer.BehaviourName
---@return steer.Vehicle
function Vehicle:stop(...) end

--- What is on: name -> its options (weight, priority, probability, ...) and target.
---@return table<steer.BehaviourName, table>
function Vehicle:behaviours() end

--- What each active behaviour did in the last step (what the inspector shows): name ->
--- {force = {x, y} (weighted, mass·units/s²), kept = fraction the combination used (0..1),
--- evaluated = false when the combination stopped before it, target = {x, y} it steered for,
--- wander_target = {x, y} (wander, flock), box_length (avoid_obstacles),
--- feelers = {{x, y}, {x, y}, {x, y}} (avoid_walls), waypoint = 1-based index (follow)}.
---@return table<steer.BehaviourName, table>
function Vehicle:forces() end

--- False once the vehicle was removed (every other use then raises an error).
---@return boolean
function Vehicle:alive() end

-- The setters return the vehicle too, so calls chain: v:set_position(x, y):wander{}.

---@param x number
---@param y number
---@return steer.Vehicle
function Vehicle:set_position(x, y) end

--- Also turns the heading to the velocity's direction when it is not zero.
---@param vx number
---@param vy number
---@return steer.Vehicle
function Vehicle:set_velocity(vx, vy) end

---@param radians number
---@return steer.Vehicle
function Vehicle:set_heading(radians) end

---@class steer.SenseCommon
---@field range number? units, > 0 (sight: default 200; hearing: no limit but the sound's radius)
---@field forget_after number? s, >= 0: a memory goes this long after it was last sensed (default 5)
---@field period number? s, >= 0: between updates, staggered over the vehicles (default 0: every step)
---@field max_memories integer? 1..1024: how many vehicles it remembers at once (default 16)

---@class steer.SightOptions: steer.SenseCommon
---@field kinds string[]? kind names it sees (default every kind)
---@field fov number? degrees in (0, 360]: the cone's full width around the heading (default 180)
---@field walls_block boolean? (default true)
---@field obstacles_block boolean? (default true)

---@class steer.HearingOptions: steer.SenseCommon
---@field tags string[]? sound tags it hears (default every tag)

---@class steer.SenseOptions
---@field name string 1..31 bytes, unique per vehicle
---@field sight steer.SightOptions? one of sight and hearing
---@field hearing steer.HearingOptions?

--- Gives the vehicle a sense the step computes (or replaces its sense of that name, keeping its
--- memories). Returns the vehicle.
---@param options steer.SenseOptions
---@return steer.Vehicle
function Vehicle:sense(options) end

--- Removes the vehicle's sense of that name and its memories (no events). Returns the vehicle.
---@param name string
---@return steer.Vehicle
function Vehicle:forget_sense(name) end

---@alias steer.SenseEvent "sensed"|"lost"|"forgot"|"heard"

---@class steer.SenseInfo: steer.SightOptions, steer.HearingOptions
---@field name string
---@field type "sight"|"hearing"
---@field events steer.SenseEvent[] the events it makes: those the brain handles, or v:listen's

--- The vehicle's senses, in the order they were added.
---@return steer.SenseInfo[]
function Vehicle:senses() end

--- The closest vehicle the sense senses now (as of its last update) and its distance then, or nil.
--- Allocates nothing.
---@param name string
---@return steer.Vehicle? other
---@return number? distance units
function Vehicle:sensed(name) end

--- Iterates the sense's memories, in the creation order of the vehicles remembered, without a
--- table per item: `for other, x, y, vx, vy, age, sensed_now in v:memory("eyes") do ... end`
--- (x, y, vx, vy: where it was and its velocity when last sensed; age: s since then).
---@param name string
---@return fun(v: steer.Vehicle, previous: steer.Vehicle?): steer.Vehicle?, number, number, number, number, number, boolean
---@return steer.Vehicle
---@return nil
function Vehicle:memory(name) end

--- A sound from the vehicle's position, made by it (it does not hear itself). Returns the vehicle.
---@param options steer.EmitOptions?
---@return steer.Vehicle
function Vehicle:emit(options) end

--- Sets the vehicle's timer: its brain's timer(v) runs after that much simulated time, rounded
--- up to whole steps (at least one). A new call replaces a pending timer. Returns the vehicle.
---@param seconds number >= 0
---@return steer.Vehicle
function Vehicle:wake_in(seconds) end

--- Drops the vehicle's pending timer, if any. Returns the vehicle.
---@return steer.Vehicle
function Vehicle:cancel_wake() end

--- Which events its senses make: only these (the fsm library sets what the current state
--- handles), or with nil those its brain has handlers for, as after v.brain is set (the default:
--- events no brain handles cost nothing). Returns the vehicle.
---@param events steer.SenseEvent[]?
---@return steer.Vehicle
function Vehicle:listen(events) end

---@class steer.Obstacle
---@field x number centre (read-only)
---@field y number (read-only)
---@field radius number (read-only)
local Obstacle = {}
function Obstacle:remove() end
---@return boolean
function Obstacle:alive() end

---@class steer.Wall
---@field x1 number (read-only)
---@field y1 number (read-only)
---@field x2 number (read-only)
---@field y2 number (read-only)
---@field nx number unit normal on the left of 1 -> 2 (read-only)
---@field ny number (read-only)
local Wall = {}
function Wall:remove() end
---@return boolean
function Wall:alive() end

---@class steer.Path
---@field loop boolean (read-only)
---@field count integer number of points (read-only)
local Path = {}
function Path:remove() end
---@return boolean
function Path:alive() end
---@return number[][] points {x, y}
function Path:points() end

---@class steer.FlowField
---@field x number origin (read-only)
---@field y number (read-only)
---@field cell_size number (read-only)
---@field cols integer (read-only)
---@field rows integer (read-only)
local FlowField = {}
function FlowField:remove() end
---@return boolean
function FlowField:alive() end
--- Sets one cell's direction; col and row start at 1. Returns the field, so calls chain.
---@param col integer
---@param row integer
---@param dx number
---@param dy number
---@return steer.FlowField
function FlowField:set(col, row, dx, dy) end
--- The bilinear direction at a point (0, 0 outside the grid).
---@param x number
---@param y number
---@return number dx
---@return number dy
function FlowField:sample(x, y) end

-- What the `steer` program gives a scene (not part of the module).

---@class steer.Gfx what draw(gfx, world) draws with, in world coordinates (white when color is left out)
---@field line fun(x1: number, y1: number, x2: number, y2: number, color: steer.Color?)
---@field circle fun(x: number, y: number, r: number, color: steer.Color?, fill: boolean?)
---@field text fun(x: number, y: number, s: any, color: steer.Color?, align: "left"|"center"|nil) on a backing panel; "center" centres the block on x
---@field hud fun(s: any) one more HUD line (top left)

---@class steer.Keyboard `steer.keyboard` in the program (a scene's `require "steer"`; not the module's)
---@field is_down fun(key: string, ...: string): boolean whether the scene holds any of the keys (LÖVE's names)
---@field set_key_repeat fun(on: boolean) a held key's repeats are keypressed calls too (off by default)
---@field has_key_repeat fun(): boolean

---@class steer.SoundModule `steer.sound` in the program (a scene's `require "steer"`; not the module's)
---@field new fun(options: steer.SoundOptions): steer.Sound an effect, synthesised once
---@field play fun(effect: steer.Sound, volume: number?) plays it (mixed with what plays), heard at the next frame

---@class steer.SoundOptions
---@field wave "sine"|"square"|"triangle"|"saw"|"noise"|nil default "square"
---@field freq number? Hz at the start, 20..12000 (default 440)
---@field to number? Hz at the end: the pitch slides there (default freq)
---@field notes number[]? 1..8 pitches played in turn (freq and to unused)
---@field duration number? seconds, 0.01..2 (default 0.2)
---@field volume number? 0..1 (default 0.5)
---@field attack number? seconds to full volume, then a fade to silence (default 0.005)
---@field seed integer? the noise's generator (default 1)

---@class steer.Sound an effect from steer.sound.new
---@field play fun(self: steer.Sound, volume: number?) plays it at `volume` (0..1, default 1) times its own
---@field duration fun(self: steer.Sound): number seconds

---@class steer.Scene the callbacks a scene may return in a table (or define as its own globals); all optional
---@field world (steer.WorldOptions|steer.World)? the world to make (or the one the scene made)
---@field keys string[][]? the scene's keys for the help overlay (F1): {key, text} pairs, `{ {"h", "one more hunter"} }`
---@field load fun(world: steer.World)? once, after the world is made
---@field update fun(world: steer.World, dt: number)? once per physics step, before it
---@field draw fun(gfx: steer.Gfx, world: steer.World)? once per drawn frame, after the world is drawn
---@field keypressed fun(key: string)? LÖVE's key names, for keys the runtime does not own (or the scene takes in `keys`)
---@field keyreleased fun(key: string)? after that key's keypressed
---@field mousepressed fun(x: number, y: number, button: integer)? world coordinates; 1 left, 2 right, 3 middle
---@field mousereleased fun(x: number, y: number, button: integer)? after that button's mousepressed
---@field mousemoved fun(x: number, y: number)? world coordinates
---@field reload fun(world: steer.World)? after a script was reloaded successfully

return steer
