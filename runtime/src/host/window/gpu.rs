//! The GPU side of the window: a wgpu surface on it, the display as a texture, and one pass that
//! draws the texture scaled by a whole number with black bars around it.
//!
//! Every outcome of acquiring a frame is handled here, once, and none of them loops: a frame
//! that cannot be shown is skipped, and the surface is reconfigured (outdated, failed) or
//! created again (lost) before the next one. A lost device is reported so the caller can build
//! a new [`Gpu`]. wgpu's errors are recorded instead of panicking (its default), and the surface
//! is never larger than the device allows. So nothing the driver or the window system does can
//! keep the caller in here for more than one frame's calls.
//!
//! Why wgpu directly and not the `pixels` crate, which is built on it and which the window
//! first used: `pixels`' `render_with` handles an outdated or lost surface by reconfiguring it
//! with the size it stored and trying again, in a loop, and its surface is private, so the
//! caller can neither skip the frame nor give the real size. A window being resized, or one the
//! window system has destroyed, kept `bt run` in that loop for ever. Owning the surface here is
//! what lets every outcome above end in one step.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use wgpu::CurrentSurfaceTexture;
use winit::window::Window;

use super::layout::{surface_size, Placement};

/// The shader: a quad over the display's place in the surface, sampled nearest.
const SHADER: &str = r"
struct Place { corner: vec2<f32>, extent: vec2<f32> }
@group(0) @binding(0) var<uniform> place: Place;
@group(0) @binding(1) var frame: texture_2d<f32>;
@group(0) @binding(2) var nearest: sampler;

struct Out { @builtin(position) pos: vec4<f32>, @location(0) uv: vec2<f32> }

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> Out {
    let uv = vec2<f32>(f32(i & 1u), f32(i >> 1u));
    var out: Out;
    out.pos = vec4<f32>(place.corner + uv * place.extent, 0.0, 1.0);
    out.uv = uv;
    return out;
}

@fragment
fn fs_main(v: Out) -> @location(0) vec4<f32> {
    return textureSample(frame, nearest, v.uv);
}
";

/// Bytes of the shader's `Place` uniform: four `f32`s.
const PLACE_BYTES: usize = 16;

/// Why a GPU could not be set up.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// No surface could be made on the window.
    #[error("cannot draw to the window: {0}")]
    Surface(#[from] wgpu::CreateSurfaceError),
    /// No adapter can present to the window.
    #[error("{0}")]
    Adapter(#[from] wgpu::RequestAdapterError),
    /// The adapter would not give a device.
    #[error("{0}")]
    Device(#[from] wgpu::RequestDeviceError),
    /// The adapter cannot present to this window's surface.
    #[error("the adapter cannot present to this window")]
    Unsupported,
}

/// What became of one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It is on its way to the screen.
    Presented,
    /// It was not shown; the next frame may be.
    Skipped(Skip),
    /// The device is gone: build a new [`Gpu`].
    DeviceLost,
}

/// Why a frame was not shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// The window has no area (minimised).
    Hidden,
    /// No surface texture came in time.
    Timeout,
    /// The window is hidden by something.
    Occluded,
    /// The surface no longer matches the window; it is reconfigured before the next frame.
    Outdated,
    /// The surface was lost and has been created again.
    Lost,
    /// wgpu reported an error (validation, out of memory); the surface is reconfigured.
    Failed,
}

/// wgpu's errors, kept instead of panicking on them.
#[derive(Debug, Default)]
pub struct ErrorLog {
    last: Mutex<Option<String>>,
    device_lost: AtomicBool,
}

impl ErrorLog {
    /// The last error reported, if any, taking it.
    pub fn take_last(&self) -> Option<String> {
        self.last.lock().ok()?.take()
    }

    fn record(&self, error: &wgpu::Error) {
        if let Ok(mut last) = self.last.lock() {
            *last = Some(error.to_string());
        }
    }
}

/// A surface on the window and what presents to it.
pub struct Gpu {
    window: Arc<Window>,
    instance: wgpu::Instance,
    surface: wgpu::Surface<'static>,
    adapter: wgpu::Adapter,
    device: wgpu::Device,
    queue: wgpu::Queue,
    config: wgpu::SurfaceConfiguration,
    /// The surface needs configuring before the next acquire.
    stale: bool,
    display: (u32, u32),
    /// The picture's size: the display's, or the output picture's while the post-process
    /// stack's display tier runs. The texture has this size; it covers the display's place.
    picture: (u32, u32),
    texture: wgpu::Texture,
    texture_format: wgpu::TextureFormat,
    place: wgpu::Buffer,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    bind_group: wgpu::BindGroup,
    pipeline: wgpu::RenderPipeline,
    errors: Arc<ErrorLog>,
}

impl Gpu {
    /// Sets up presenting a `display`-sized picture to `window`, whose surface starts at
    /// `size` (clamped to the device's limit).
    ///
    /// # Errors
    /// No surface on the window, no adapter or device, or an adapter that cannot present to
    /// the window.
    pub fn new(
        window: Arc<Window>,
        size: (u32, u32),
        display: (u32, u32),
        vsync: bool,
    ) -> Result<Gpu, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            // Vulkan (or Metal, DX12): wgpu's OpenGL path cannot present to an X11 window.
            backends: wgpu::Backends::PRIMARY,
            ..wgpu::InstanceDescriptor::new_without_display_handle().with_env()
        });
        let surface = instance.create_surface(window.clone())?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::from_env().unwrap_or_default(),
            force_fallback_adapter: false,
            compatible_surface: Some(&surface),
        }))?;
        let (device, queue) =
            pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
                label: Some("bt"),
                // The adapter's own limits, so a window may be as large as the adapter allows.
                required_limits: adapter.limits(),
                ..wgpu::DeviceDescriptor::default()
            }))?;
        let errors = Arc::new(ErrorLog::default());
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e| sink.record(&e)));
        let lost = errors.clone();
        device.set_device_lost_callback(move |_, _| lost.device_lost.store(true, Ordering::SeqCst));

        let caps = surface.get_capabilities(&adapter);
        // A format that stores the palette's bytes as they are; an sRGB one only when it is
        // all there is (the texture is then sRGB too, so the bytes still arrive unchanged).
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| {
                matches!(
                    f,
                    wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Rgba8Unorm
                )
            })
            .or_else(|| caps.formats.first().copied())
            .ok_or(GpuError::Unsupported)?;
        let texture_format = if format.is_srgb() {
            wgpu::TextureFormat::Rgba8UnormSrgb
        } else {
            wgpu::TextureFormat::Rgba8Unorm
        };
        let max = device.limits().max_texture_dimension_2d;
        let (width, height) = surface_size(size, max).unwrap_or((1, 1));
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width,
            height,
            present_mode: if vsync {
                wgpu::PresentMode::AutoVsync
            } else {
                wgpu::PresentMode::AutoNoVsync
            },
            desired_maximum_frame_latency: 2,
            alpha_mode: wgpu::CompositeAlphaMode::Auto,
            view_formats: Vec::new(),
        };

        let display = (display.0.clamp(1, max), display.1.clamp(1, max));
        let texture = picture_texture(&device, texture_format, display);
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("bt nearest"),
            mag_filter: wgpu::FilterMode::Nearest,
            min_filter: wgpu::FilterMode::Nearest,
            ..wgpu::SamplerDescriptor::default()
        });
        let place = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bt placement"),
            size: PLACE_BYTES as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("bt present"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: wgpu::BufferSize::new(PLACE_BYTES as u64),
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        multisampled: false,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let bind_group = bind_group(&device, &layout, &place, &view, &sampler);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("bt present"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("bt present"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("bt present"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                buffers: &[],
                compilation_options: wgpu::PipelineCompilationOptions::default(),
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                ..wgpu::PrimitiveState::default()
            },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let mut gpu = Gpu {
            window,
            instance,
            surface,
            adapter,
            device,
            queue,
            config,
            stale: true,
            display,
            picture: display,
            texture,
            texture_format,
            place,
            layout,
            sampler,
            bind_group,
            pipeline,
            errors,
        };
        gpu.configure((width, height));
        Ok(gpu)
    }

    /// The adapter's backend, lower case (`vulkan`, `metal`, ...).
    pub fn backend(&self) -> String {
        format!("{:?}", self.adapter.get_info().backend).to_lowercase()
    }

    /// The present mode asked for.
    pub fn present_mode(&self) -> wgpu::PresentMode {
        self.config.present_mode
    }

    /// The longest side a surface may have on this device.
    pub fn max_side(&self) -> u32 {
        self.device.limits().max_texture_dimension_2d
    }

    /// wgpu's errors and device loss.
    pub fn errors(&self) -> &Arc<ErrorLog> {
        &self.errors
    }

    /// Configures the surface at `size` (already clamped) and places the display in it.
    fn configure(&mut self, size: (u32, u32)) {
        self.config.width = size.0;
        self.config.height = size.1;
        self.surface.configure(&self.device, &self.config);
        let place = Placement::new(size, self.display).to_ndc(size, self.display);
        let mut bytes = [0u8; PLACE_BYTES];
        for (chunk, v) in bytes.chunks_exact_mut(4).zip(place) {
            chunk.copy_from_slice(&v.to_ne_bytes());
        }
        self.queue.write_buffer(&self.place, 0, &bytes);
        self.stale = false;
    }

    /// Shows `rgba` (a `picture`-sized picture, 4 bytes a pixel: the display's pixels, or the
    /// output picture) over the display's place in a surface of `window` pixels (the window's
    /// size, clamped here to the device's limit).
    pub fn present(&mut self, rgba: &[u8], picture: (u32, u32), window: (u32, u32)) -> Outcome {
        if self.errors.device_lost.load(Ordering::SeqCst) {
            return Outcome::DeviceLost;
        }
        let Some(size) = surface_size(window, self.max_side()) else {
            return Outcome::Skipped(Skip::Hidden);
        };
        if self.stale || size != (self.config.width, self.config.height) {
            self.configure(size);
        }
        let frame = match self.surface.get_current_texture() {
            CurrentSurfaceTexture::Success(frame) => frame,
            // Usable: show it, and let the window's next size reconfigure the surface.
            CurrentSurfaceTexture::Suboptimal(frame) => frame,
            CurrentSurfaceTexture::Timeout => return Outcome::Skipped(Skip::Timeout),
            CurrentSurfaceTexture::Occluded => return Outcome::Skipped(Skip::Occluded),
            CurrentSurfaceTexture::Outdated => {
                self.stale = true;
                return Outcome::Skipped(Skip::Outdated);
            }
            CurrentSurfaceTexture::Lost => {
                self.recreate_surface();
                return Outcome::Skipped(Skip::Lost);
            }
            CurrentSurfaceTexture::Validation => {
                self.stale = true;
                return Outcome::Skipped(Skip::Failed);
            }
        };
        let max = self.max_side();
        let picture = (picture.0.clamp(1, max), picture.1.clamp(1, max));
        if picture != self.picture {
            // Made again only when the effects come on or go off.
            self.texture = picture_texture(&self.device, self.texture_format, picture);
            let view = self
                .texture
                .create_view(&wgpu::TextureViewDescriptor::default());
            self.bind_group = bind_group(
                &self.device,
                &self.layout,
                &self.place,
                &view,
                &self.sampler,
            );
            self.picture = picture;
        }
        let (w, h) = self.picture;
        let needed = w as usize * h as usize * 4;
        if let Some(pixels) = rgba.get(..needed) {
            self.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &self.texture,
                    mip_level: 0,
                    origin: wgpu::Origin3d::ZERO,
                    aspect: wgpu::TextureAspect::All,
                },
                pixels,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(w * 4),
                    rows_per_image: Some(h),
                },
                wgpu::Extent3d {
                    width: w,
                    height: h,
                    depth_or_array_layers: 1,
                },
            );
        }
        let view = frame
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("bt present"),
            });
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("bt present"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                    depth_slice: None,
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.bind_group, &[]);
            pass.draw(0..4, 0..1);
        }
        self.queue.submit(Some(encoder.finish()));
        frame.present();
        Outcome::Presented
    }

    /// Makes a new surface on the window, for one that was lost.
    fn recreate_surface(&mut self) {
        match self.instance.create_surface(self.window.clone()) {
            Ok(surface) => self.surface = surface,
            Err(e) => {
                if let Ok(mut last) = self.errors.last.lock() {
                    *last = Some(format!("cannot create the surface again: {e}"));
                }
            }
        }
        self.stale = true;
    }
}

/// The texture a `size` picture is uploaded to.
fn picture_texture(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    size: (u32, u32),
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("bt picture"),
        size: wgpu::Extent3d {
            width: size.0,
            height: size.1,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })
}

/// The bind group of the present pass: the placement, the picture and the sampler.
fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    place: &wgpu::Buffer,
    view: &wgpu::TextureView,
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("bt present"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: place.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(view),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::Sampler(sampler),
            },
        ],
    })
}
